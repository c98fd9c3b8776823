import { describe, expect, it } from 'vitest';
import {
  WOO_COLUMNS,
  WOO_LANGUAGES,
  type WooLanguage,
} from '../../src/catalog/presets/woocommerce-headers.js';
import { mapRealFile } from './map-real-file.js';

/**
 * Issue 17: a WooCommerce export whatever the language of its header. The real WooCommerce
 * sample export, its header translated by these tests (the data rows as WooCommerce wrote them),
 * maps to exactly the rows of the English original.
 */
const FILE = 'woocommerce/sample_products.csv';

/** The header as a Russian store's exporter writes it (ru_RU language pack, 2022). */
// biome-ignore format: one header, as written
const RUSSIAN = [
  'ID', 'Тип', 'Артикул', 'Имя', 'Опубликован', 'рекомендуемый?', 'Видимость в каталоге',
  'Краткое описание', 'Описание', 'Дата начала действия скидки', 'Дата окончания действия скидки',
  'Статус налога', 'Налоговый класс', 'В наличии?', 'Запасы', 'Возможен ли предзаказ?',
  'Продано индивидуально?', 'Вес (lbs)', 'Длина (in)', 'Ширина (in)', 'Высота (in)',
  'Разрешить отзывы от клиентов?', 'Примечание к покупке', 'Акционная цена', 'Базовая цена',
  'Категории', 'Метки', 'Класс доставки', 'Изображения', 'Лимит загрузок', 'Дней срока загрузки',
  'Родительский', 'Сгруппированные товары', 'Апсейл', 'Кросселы', 'Внешний URL', 'Текст кнопки',
  'Позиция', 'Имя атрибута 1', 'Значения атрибутов 1', 'Видимость атрибута 1', 'Глобальный атрибут 1',
  'Имя атрибута 2', 'Значения атрибутов 2', 'Видимость атрибута 2', 'Глобальный атрибут 2',
  'Мета: _wpcom_is_markdown', 'Имя загрузки 1', 'URL загрузки 1', 'Имя загрузки 2', 'URL загрузки 2',
];

/** The header as a German store's exporter writes it (de_DE language pack, 2025). */
// biome-ignore format: one header, as written
const GERMAN = [
  'ID', 'Typ', 'Artikelnummer', 'Name', 'Veröffentlicht', 'Ist hervorgehoben?', 'Sichtbarkeit im Katalog',
  'Kurzbeschreibung', 'Beschreibung', 'Datum, an dem Angebotspreis beginnt',
  'Datum, an dem Angebotspreis endet', 'Steuerstatus', 'Steuerklasse', 'Vorrätig?', 'Lager',
  'Lieferrückstande erlaubt?', 'Nur einzeln verkaufen?', 'Gewicht (lbs)', 'Länge (in)', 'Breite (in)',
  'Höhe (in)', 'Kundenrezensionen erlauben?', 'Hinweis zum Kauf', 'Angebotspreis', 'Regulärer Preis',
  'Kategorien', 'Schlagwörter', 'Versandklasse', 'Bilder', 'Downloadlimit', 'Ablauftage des Downloads',
  'Übergeordnetes Produkt', 'Gruppierte Produkte', 'Zusatzverkäufe', 'Cross-Sells (Querverkäufe)',
  'Externe URL', 'Button-Text', 'Position', 'Attribut 1 Name', 'Attribut 1 Wert(e)', 'Attribut 1 Sichtbar',
  'Attribut 1 Global', 'Attribut 2 Name', 'Attribut 2 Wert(e)', 'Attribut 2 Sichtbar', 'Attribut 2 Global',
  'Meta: _wpcom_is_markdown', 'Download 1 Name', 'Download 1 URL', 'Download 2 Name', 'Download 2 URL',
];

/**
 * Turkish, a language this tool carries no names for (tr_TR language pack, 2022): recognized by
 * the exporter's column order and its untranslated values.
 */
// biome-ignore format: one header, as written
const TURKISH = [
  'Kimlik', 'Tür', 'Stok kodu (SKU)', 'İsim', 'Yayımlanmış', 'Öne çıkan?', 'Katalogda görünürlük',
  'Kısa açıklama', 'Açıklama', 'İndirimli fiyatın başladığı tarih', 'İndirimli fiyatın bittiği tarih',
  'Vergi durumu', 'Vergi sınıfı', 'Stokta?', 'Stok', 'Yok satmaya izin?', 'Ayrı ayrı mı satılıyor?',
  'Ağırlık (lbs)', 'Uzunluk (in)', 'Genişlik (in)', 'Yükseklik (in)',
  'Müşteri incelemelerine izin verilsin mi?', 'Satın alma notu', 'İndirimli satış fiyatı', 'Normal fiyat',
  'Kategoriler', 'Etiketler', 'Gönderim sınıfı', 'Görseller', 'İndirme sınırı', 'İndirme sona erme günü',
  'Ebeveyn', 'Gruplanmış ürünler', 'Yukarı satışlar', 'Çapraz satışlar', 'Harici URL', 'Düğme metni',
  'Konum', 'Nitelik 1 ismi', 'Nitelik 1 değer(ler)i', 'Nitelik 1 görünür', 'Nitelik 1 genel',
  'Nitelik 2 ismi', 'Nitelik 2 değer(ler)i', 'Nitelik 2 görünür', 'Nitelik 2 genel',
  'Meta: _wpcom_is_markdown', 'İndirme 1 ismi', "İndirme 1 URL'si", 'İndirme 2 ismi', "İndirme 2 URL'si",
];

/** An English exporter header in `language`, by the first translation the table holds of each name. */
function translated(columns: string[], language: WooLanguage): string[] {
  return columns.map((column) => {
    for (const [english, byLanguage] of Object.entries(WOO_COLUMNS)) {
      const text = byLanguage[language]?.[0] ?? english;
      const pattern = new RegExp(
        `^${english
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/%d/, '(\\d+)')
          .replace(/%s/, '(.+)')}$`,
      );
      const match = pattern.exec(column);
      if (match) return text.replace(/%[ds]/, match[1] ?? '');
    }
    return column;
  });
}

describe('a WooCommerce export in the store’s language', () => {
  it.each([
    ['Russian', RUSSIAN, "WooCommerce's Russian column names"],
    ['German', GERMAN, "WooCommerce's German column names"],
    ['Turkish', TURKISH, "WooCommerce's column order and untranslated Type values"],
  ])('%s: detected as woocommerce, every row as from the English header', async (_, header, says) => {
    const english = await mapRealFile(FILE);
    const file = await mapRealFile(FILE, {
      header: (columns) => {
        expect(columns).toHaveLength(header.length);
        return header;
      },
    });

    const detection = file.detections.find((line) => line.startsWith('preset '));
    expect(detection).toMatch(/^preset woocommerce \(detected from columns /);
    expect(detection).toContain(says);
    expect(file.rows).toEqual(english.rows);
    expect(file.byKey('woo-vneck-tee-red').fields).toMatchObject({ name: 'V-Neck T-Shirt - Red', price: 20 });
  });

  it('names the columns it was detected by as the file writes them', async () => {
    const file = await mapRealFile(FILE, { header: () => RUSSIAN });
    expect(file.detections).toContain(
      "preset woocommerce (detected from columns Тип, Имя, Базовая цена, Артикул: WooCommerce's Russian column names)",
    );
  });

  it('--preset woocommerce accepts the Russian header, which it reads by its own names', async () => {
    const file = await mapRealFile(FILE, { header: () => RUSSIAN, preset: 'woocommerce' });
    expect(file.detections).toContain(
      "preset woocommerce (--preset; read by WooCommerce's Russian column names)",
    );
    expect(file.rows).toEqual((await mapRealFile(FILE)).rows);
  });

  it.each(WOO_LANGUAGES)(
    '%s: each language the tool carries maps the sample as the English header does',
    async (language) => {
      const english = await mapRealFile(FILE);
      const file = await mapRealFile(FILE, { header: (columns) => translated(columns, language) });
      expect(file.detections.join('\n')).toContain('preset woocommerce (detected from columns');
      expect(file.rows).toEqual(english.rows);
    },
  );

  it('the importer sample (no ID column, not the exporter’s order) in German: found by its names alone', async () => {
    const english = await mapRealFile('woocommerce/sample.csv');
    const file = await mapRealFile('woocommerce/sample.csv', {
      header: (columns) => translated(columns, 'de'),
    });
    expect(file.rows).toEqual(english.rows);
  });

  it('a file without SKUs (keys derived from the ID) in Japanese keeps the same derived keys', async () => {
    const english = await mapRealFile('woocommerce/cys-dummy-products.csv');
    const file = await mapRealFile('woocommerce/cys-dummy-products.csv', {
      header: (columns) => translated(columns, 'ja'),
    });
    expect(file.rows).toEqual(english.rows);
    expect(file.byKey('woocommerce:id:69').fields).toMatchObject({ name: 'Leather-Clad Leisure Chair' });
  });
});
