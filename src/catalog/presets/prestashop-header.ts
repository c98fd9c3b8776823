import type { SourceRecord } from '../../interfaces.js';
import type { LocalizedHeader } from './types.js';

/**
 * A PrestaShop product import file whatever the language of the back office (issue 17). The names
 * of PrestaShop's import fields follow the employee's language ("Actif (0/1)", "Nom *", "Prix TTC"),
 * but every translation keeps the markers the field list is written with: `(0/1)`, `(x,y,z...)`,
 * `(0 = No, 1 = Yes)`-style choices, `*` on the name and `#` on the two references. A header with
 * several of those markers is read back to the English names the preset reads, column by column,
 * by the words each language uses for the few fields the preset reads (a name, a price with or
 * without tax, a quantity…). Columns no rule names keep their own name and are not read.
 */
export function localizePrestashopHeader(
  columns: readonly string[],
  _sample: readonly SourceRecord[],
): LocalizedHeader | undefined {
  const markers = columns.filter((column) => MARKER.test(column)).length;
  if (markers < 3) return undefined;
  // One column per English name: a second one that a rule also names (two prices without tax)
  // keeps its own name, so the preset never reads the wrong one of two.
  const taken = new Set<string>();
  const names = columns.map((column) => {
    const name = englishName(column);
    if (name === undefined || taken.has(name)) return column;
    taken.add(name);
    return name;
  });
  const translated = names.filter((name, i) => name !== columns[i]).length;
  if (translated === 0) return undefined;
  if (!names.includes('Name *') || !names.some((name) => name.startsWith('Price tax'))) return undefined;
  return { columns: names, says: 'PrestaShop import field names in the back office’s language' };
}

/** The markers PrestaShop's import field names carry in every language. */
const MARKER = /\(0\/1\)|\(x,\s?y,\s?z\s?(?:\.\.\.|…)\)|\(0\s*=|[*#]\s*$/i;

/** Lowercase, accents off (`é` → `e`, `ł` → `l`), punctuation kept, spaces collapsed. */
function plain(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Whole words of a plain header, for roots that must start a word. */
function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function hasRoot(text: string, roots: readonly string[]): boolean {
  const all = words(text);
  return roots.some((root) => all.some((word) => word.startsWith(root)));
}

// Words per field, in en, fr, es, it, de, nl, pt, pl, ru, sv (accents off, as `plain` leaves them).
const NAME = ['name', 'nom', 'nombre', 'nome', 'naam', 'nazwa', 'название', 'наименование', 'namn'];
const QUANTITY = [
  'quantity',
  'quantite',
  'cantidad',
  'quantita',
  'menge',
  'anzahl',
  'aantal',
  'ilosc',
  'quantidade',
  'количество',
  'antal',
];
const BRAND = [
  'manufacturer',
  'brand',
  'fabricant',
  'marque',
  'fabricante',
  'marca',
  'produttore',
  'marchio',
  'hersteller',
  'marke',
  'fabrikant',
  'merk',
  'producent',
  'marka',
  'производитель',
  'бренд',
  'tillverkare',
  'varumarke',
];
const WEIGHT = ['weight', 'poids', 'peso', 'gewicht', 'waga', 'вес', 'vikt'];
const VISIBILITY = [
  'visibility',
  'visibilite',
  'visibilidad',
  'visibilita',
  'sichtbarkeit',
  'zichtbaarheid',
  'widocznosc',
  'visibilidade',
  'видимость',
  'synlighet',
];
const SUMMARY = [
  'summary',
  'resume',
  'resumen',
  'riepilogo',
  'zusammenfassung',
  'kurzbeschreibung',
  'samenvatting',
  'podsumowanie',
  'resumo',
  'краткое описание',
  'сводка',
  'sammanfattning',
];
const DESCRIPTION = [
  'description',
  'descripcion',
  'descrizione',
  'beschreibung',
  'beschrijving',
  'omschrijving',
  'opis',
  'descricao',
  'описание',
  'beskrivning',
];
const ID = [
  'id',
  'product id',
  'id produit',
  'id del producto',
  'id prodotto',
  'produkt-id',
  'produkt id',
  'product-id',
  'id produktu',
  'id do produto',
  'id товара',
  'produkt-id',
];

const PRICE_ROOTS = ['price', 'prix', 'precio', 'prezzo', 'preis', 'prijs', 'cena', 'preco', 'цена', 'pris'];
const NET_ROOTS = ['excl', 'ht', 'sin', 'senza', 'ohne', 'exkl', 'netto', 'bez', 'sem', 'без', 'net'];
const GROSS_ROOTS = ['incl', 'ttc', 'con', 'mit', 'inkl', 'brutto', 'com', 'z', 'с', 'gross'];
/** Prices that are not the selling price: wholesale, purchase, unit, ecotax, shipping. */
const OTHER_PRICE_ROOTS = [
  'wholesale',
  'achat',
  'gros',
  'unit',
  'coste',
  'costo',
  'compra',
  'acquist',
  'ingross',
  'einkauf',
  'inkoop',
  'zakup',
  'hurt',
  'custo',
  'закуп',
  'оптов',
  'inkop',
  'ecotax',
  'eco',
  'shipping',
  'livraison',
  'envio',
  'spedizion',
  'versand',
  'verzend',
  'wysyl',
  'доставк',
  'frakt',
  'additional',
  'supplement',
];
const ACTIVE_ROOTS = ['activ', 'actif', 'aktiv', 'attiv', 'actie', 'aktyw', 'ativ', 'актив', 'enabled'];
const CATEGORY_ROOTS = ['categor', 'kategor', 'категор'];
const TAG_ROOTS = ['tag', 'mots', 'etiquet', 'etichett', 'schlagw', 'schlusselw', 'etiket', 'тег', 'метк'];
const IMAGE_ROOTS = ['image', 'imag', 'immagin', 'bild', 'afbeeld', 'zdjec', 'obraz', 'изображ', 'фото'];
const ALT_ROOTS = ['alt', 'alternat', 'альтернат'];
const SUPPLIER_ROOTS = [
  'supplier',
  'fournisseur',
  'proveedor',
  'fornitore',
  'lieferant',
  'leverancier',
  'dostawc',
  'fornecedor',
  'поставщик',
  'leverantor',
];
const AVAILABLE_ROOTS = [
  'available',
  'disponib',
  'verfugbar',
  'beschikbaar',
  'dostepn',
  'доступ',
  'tillganglig',
];
const ONLINE_ROOTS = ['online', 'ligne', 'linea', 'онлайн', 'internet'];

/** The English name of one localized PrestaShop import column, when a rule knows it. */
function englishName(column: string): string | undefined {
  const text = plain(column);
  const bare = text.replace(/\s*[*#]\s*$/, '').trim();
  if (ID.includes(bare)) return 'Product ID';
  if (NAME.includes(bare)) return 'Name *';
  if (QUANTITY.includes(bare)) return 'Quantity';
  if (BRAND.includes(bare)) return 'Manufacturer';
  if (WEIGHT.some((word) => bare === word || bare.startsWith(`${word} (`))) return 'Weight';
  if (VISIBILITY.includes(bare)) return 'Visibility';
  if (SUMMARY.includes(bare)) return 'Summary';
  if (DESCRIPTION.includes(bare)) return 'Description';
  if (/^ean[- ]?13$/.test(bare)) return 'EAN13';
  if (text.endsWith('#')) return hasRoot(text, SUPPLIER_ROOTS) ? 'Supplier reference #' : 'Reference #';
  if (text.includes('(0/1)') && hasRoot(text, ACTIVE_ROOTS)) return 'Active (0/1)';
  if (/\(x,\s?y,\s?z/.test(text)) {
    if (hasRoot(text, CATEGORY_ROOTS)) return 'Categories (x,y,z...)';
    if (hasRoot(text, IMAGE_ROOTS)) return hasRoot(text, ALT_ROOTS) ? undefined : 'Image URLs (x,y,z...)';
    if (hasRoot(text, TAG_ROOTS)) return 'Tags (x,y,z...)';
    return undefined;
  }
  if (/\(0\s*=/.test(text) && hasRoot(text, AVAILABLE_ROOTS) && !hasRoot(text, ONLINE_ROOTS))
    return 'Available for order (0 = No, 1 = Yes)';
  if (hasRoot(text, PRICE_ROOTS) && !hasRoot(text, OTHER_PRICE_ROOTS)) {
    const all = words(text);
    if (all.some((word) => NET_ROOTS.includes(word) || /^(?:excl|exkl|esclus)/.test(word)))
      return 'Price tax excluded';
    if (all.some((word) => GROSS_ROOTS.includes(word) || /^(?:incl|inkl)/.test(word)))
      return 'Price tax included';
  }
  return undefined;
}
