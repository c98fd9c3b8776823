import { describe, expect, it } from 'vitest';
import { mapRealFile } from './map-real-file.js';

/**
 * Issue 17: a PrestaShop import file whatever the language of the back office. The real sample
 * that PrestaShop ships, its header translated by these tests (the names a back office in that
 * language gives the import fields; the data rows as PrestaShop wrote them), maps to exactly the
 * rows of the English original. Columns the preset does not read keep their English names: only
 * the fields below matter to the mapping.
 */
const FILE = 'prestashop/products_import.csv';

type Language = 'fr' | 'es' | 'de' | 'it' | 'pl' | 'nl';

// biome-ignore format: a table, one line a field
const TRANSLATIONS: Record<string, Record<Language, string>> = {
  'Product ID':                { fr: 'ID', es: 'ID', de: 'ID', it: 'ID', pl: 'ID', nl: 'ID' },
  'Active (0/1)':              { fr: 'Actif (0/1)', es: 'Activo (0/1)', de: 'Aktiv (0/1)', it: 'Attivo (0/1)', pl: 'Aktywny (0/1)', nl: 'Actief (0/1)' },
  'Name *':                    { fr: 'Nom *', es: 'Nombre *', de: 'Name *', it: 'Nome *', pl: 'Nazwa *', nl: 'Naam *' },
  'Categories (x,y,z...)':     { fr: 'Catégories (x,y,z...)', es: 'Categorías (x,y,z...)', de: 'Kategorien (x,y,z...)', it: 'Categorie (x,y,z...)', pl: 'Kategorie (x,y,z...)', nl: 'Categorieën (x,y,z...)' },
  'Price tax excluded':        { fr: 'Prix HT', es: 'Precio sin IVA', de: 'Preis ohne MwSt.', it: 'Prezzo IVA esclusa', pl: 'Cena bez podatku', nl: 'Prijs excl. btw' },
  'Wholesale price':           { fr: "Prix d'achat HT", es: 'Precio de coste', de: 'Einkaufspreis', it: "Prezzo d'acquisto", pl: 'Cena hurtowa', nl: 'Inkoopprijs' },
  'On sale (0/1)':             { fr: 'En solde (0/1)', es: 'En oferta (0/1)', de: 'Im Angebot (0/1)', it: 'In saldo (0/1)', pl: 'W promocji (0/1)', nl: 'In de aanbieding (0/1)' },
  'Reference #':               { fr: 'Référence #', es: 'Referencia #', de: 'Referenz #', it: 'Riferimento #', pl: 'Indeks #', nl: 'Referentie #' },
  'Supplier reference #':      { fr: 'Référence fournisseur #', es: 'Referencia del proveedor #', de: 'Lieferanten-Referenz #', it: 'Riferimento fornitore #', pl: 'Kod dostawcy #', nl: 'Referentie leverancier #' },
  'Manufacturer':              { fr: 'Marque', es: 'Marca', de: 'Marke', it: 'Marca', pl: 'Marka', nl: 'Merk' },
  'Weight':                    { fr: 'Poids', es: 'Peso', de: 'Gewicht', it: 'Peso', pl: 'Waga', nl: 'Gewicht' },
  'Quantity':                  { fr: 'Quantité', es: 'Cantidad', de: 'Menge', it: 'Quantità', pl: 'Ilość', nl: 'Aantal' },
  'Minimal quantity':          { fr: 'Quantité minimale', es: 'Cantidad mínima', de: 'Mindestmenge', it: 'Quantità minima', pl: 'Minimalna ilość', nl: 'Minimale hoeveelheid' },
  'Visibility':                { fr: 'Visibilité', es: 'Visibilidad', de: 'Sichtbarkeit', it: 'Visibilità', pl: 'Widoczność', nl: 'Zichtbaarheid' },
  'Unit price':                { fr: 'Prix unitaire HT', es: 'Precio unitario sin IVA', de: 'Stückpreis ohne MwSt.', it: 'Prezzo unitario IVA esclusa', pl: 'Cena jednostkowa bez podatku', nl: 'Prijs per eenheid excl. btw' },
  'Summary':                   { fr: 'Résumé', es: 'Resumen', de: 'Zusammenfassung', it: 'Riepilogo', pl: 'Podsumowanie', nl: 'Samenvatting' },
  'Description':               { fr: 'Description', es: 'Descripción', de: 'Beschreibung', it: 'Descrizione', pl: 'Opis', nl: 'Beschrijving' },
  'Tags (x,y,z...)':           { fr: 'Mots-clés (x,y,z...)', es: 'Etiquetas (x,y,z...)', de: 'Schlagwörter (x,y,z...)', it: 'Etichette (x,y,z...)', pl: 'Tagi (x,y,z...)', nl: 'Tags (x,y,z...)' },
  'Available for order (0 = No, 1 = Yes)': { fr: 'Disponible à la vente (0 = Non, 1 = Oui)', es: 'Disponible para pedidos (0 = No, 1 = Sí)', de: 'Bestellbar (0 = Nein, 1 = Ja)', it: 'Disponibile per l’ordine (0 = No, 1 = Sì)', pl: 'Dostępny do zamówienia (0 = Nie, 1 = Tak)', nl: 'Beschikbaar voor bestellen (0 = Nee, 1 = Ja)' },
  'Image URLs (x,y,z...)':     { fr: 'URL des images (x,y,z...)', es: 'URLs de las imágenes (x,y,z...)', de: 'Bild-URLs (x,y,z...)', it: 'URL immagini (x,y,z...)', pl: 'Adresy URL zdjęć (x,y,z...)', nl: 'Afbeeldings-URL’s (x,y,z...)' },
  'Image alt texts (x,y,z...)': { fr: 'Textes alternatifs des images (x,y,z...)', es: 'Textos alternativos de las imágenes (x,y,z...)', de: 'Alt-Texte der Bilder (x,y,z...)', it: 'Testi alternativi immagini (x,y,z...)', pl: 'Teksty alternatywne zdjęć (x,y,z...)', nl: 'Alt-teksten afbeeldingen (x,y,z...)' },
  'Available online only (0 = No, 1 = Yes)': { fr: 'Uniquement disponible sur internet (0 = Non, 1 = Oui)', es: 'Disponible sólo en línea (0 = No, 1 = Sí)', de: 'Nur online verfügbar (0 = Nein, 1 = Ja)', it: 'Disponibile solo online (0 = No, 1 = Sì)', pl: 'Dostępny tylko online (0 = Nie, 1 = Tak)', nl: 'Alleen online beschikbaar (0 = Nee, 1 = Ja)' },
};

const LANGUAGES: Language[] = ['fr', 'es', 'de', 'it', 'pl', 'nl'];

function translated(columns: string[], language: Language): string[] {
  return columns.map((column) => TRANSLATIONS[column]?.[language] ?? column);
}

describe('a PrestaShop import file in the back office’s language', () => {
  it.each(LANGUAGES)('%s: detected as prestashop, every row as from the English header', async (language) => {
    const english = await mapRealFile(FILE);
    const file = await mapRealFile(FILE, { header: (columns) => translated(columns, language) });

    const detection = file.detections.find((line) => line.startsWith('preset '));
    expect(detection).toMatch(/^preset prestashop \(detected from columns /);
    expect(detection).toContain('PrestaShop import field names in the back office’s language');
    expect(file.rows).toEqual(english.rows);
    expect(english.upserts.length).toBeGreaterThan(0);
  });

  it('--preset prestashop reads a French header by its own names', async () => {
    const file = await mapRealFile(FILE, {
      header: (columns) => translated(columns, 'fr'),
      preset: 'prestashop',
    });
    expect(file.rows).toEqual((await mapRealFile(FILE)).rows);
  });

  it('never takes the wholesale or unit price (both "HT") for the selling price', async () => {
    // The selling price's column renamed to something no rule knows: the other prices are not taken.
    const file = mapRealFile(FILE, {
      preset: 'prestashop',
      header: (columns) =>
        translated(columns, 'fr').map((column) => (column === 'Prix HT' ? 'Colonne inconnue' : column)),
    });
    await expect(file).rejects.toThrow(
      /--preset prestashop: the source has no column .*"price tax excluded"/,
    );
  });
});
