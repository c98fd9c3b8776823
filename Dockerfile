# The catalog-sync CLI in a container: `docker compose --profile workers up -d` runs two workers.
FROM node:20-alpine
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json rolldown.config.mjs ./
COPY bin ./bin
COPY src ./src
COPY bench ./bench
RUN npm run build && npm prune --omit=dev
USER node
ENTRYPOINT ["node", "bin/catalog-sync.js"]
