// The classifier's rules (classifier.ts) on products an importer would describe, and its fixture tied to the
// HS 2022 subheading lists of fixtures/catalog/hs-nomenclature.ts.
import { describe, expect, it } from 'vitest';
import { HS_SUBHEADINGS } from '#fixtures/catalog/hs-nomenclature.js';
import { HS_HEADING_RULES, WCO_HS_2022 } from '#fixtures/classification/hs-rules.js';
import { CLASSIFICATION_REVIEW_THRESHOLD, classifyProductText, composition, MAX_ALTERNATIVES, words } from './classifier.js';

const classify = (productName: string, attributes?: Record<string, string>) => classifyProductText({ productName, ...(attributes ? { attributes } : {}) });

describe('the classification fixture', () => {
  it('names a public source and an as-of date on every heading and subheading row', () => {
    for (const heading of HS_HEADING_RULES) {
      expect([heading.source, heading.asOf]).toEqual([WCO_HS_2022.source, WCO_HS_2022.asOf]);
      for (const sub of heading.subheadings) expect([sub.source, sub.asOf]).toEqual([WCO_HS_2022.source, WCO_HS_2022.asOf]);
    }
  });

  it('uses only HS 2022 subheadings of its heading, as the catalog nomenclature lists them where it lists the heading', () => {
    for (const heading of HS_HEADING_RULES) {
      for (const sub of heading.subheadings) {
        expect(sub.hsCode).toMatch(/^\d{4}\.\d{2}$/);
        expect(sub.hsCode.startsWith(heading.heading)).toBe(true);
        if (HS_SUBHEADINGS[heading.heading]) expect(HS_SUBHEADINGS[heading.heading], sub.hsCode).toContain(sub.hsCode);
      }
    }
  });

  it('holds each heading once and each subheading once', () => {
    const headings = HS_HEADING_RULES.map((h) => h.heading);
    expect(new Set(headings).size).toBe(headings.length);
    const subs = HS_HEADING_RULES.flatMap((h) => h.subheadings.map((s) => s.hsCode));
    expect(new Set(subs).size).toBe(subs.length);
  });
});

describe('the words the rules read', () => {
  it('folds case, plurals, hyphens and the spellings of T-shirt', () => {
    expect(words("Men's T-Shirts, tee shirt & TEES")).toEqual(['men', 's', 'tshirt', 'tshirt', 'tshirt']);
    expect(words('Upholstered chairs, glass')).toEqual(['upholstered', 'chair', 'glass']);
  });

  it('reads a composition as materials and shares', () => {
    expect(composition('60% cotton, 40 % polyester')).toEqual([
      { share: 60, material: 'cotton' },
      { share: 40, material: 'polyester' },
    ]);
  });
});

describe('the classifier', () => {
  it('classifies a cotton T-shirt to 6109.10 with high confidence and no review', () => {
    const result = classify("Men's crew-neck T-shirt, knitted jersey, 100% cotton");
    expect(result.hsCode).toBe('6109.10');
    expect(result.confidence).toBeGreaterThanOrEqual(CLASSIFICATION_REVIEW_THRESHOLD);
    expect(result.rationale).toContain('"cotton"');
  });

  it('splits a T-shirt of unstated material between 6109.10 and 6109.90, below the review threshold', () => {
    const result = classify('Knitted T-shirt');
    expect(result.hsCode).toBe('6109.10');
    expect(result.confidence).toBeLessThan(CLASSIFICATION_REVIEW_THRESHOLD);
    expect(result.alternatives[0]).toMatchObject({ hsCode: '6109.90', confidence: result.confidence });
    expect(result.rationale).toContain('below the review threshold');
  });

  it('takes the material from an attribute and says so in the rationale', () => {
    const result = classify('Crew-neck sweater', { material: 'merino wool' });
    expect(result.hsCode).toBe('6110.11');
    expect(result.rationale).toContain('(attribute material)');
  });

  it('reads a textile mixture as its predominant material', () => {
    expect(classify('Crew-neck sweater', { composition: '60% cotton, 40% polyester' }).hsCode).toBe('6110.20');
    expect(classify('Crew-neck sweater', { composition: '30% cotton, 70% polyester' }).hsCode).toBe('6110.30');
  });

  it('needs both the upholstery and the frame to be sure of a seat subheading', () => {
    const sure = classify('Upholstered lounge chair with solid wood frame, fabric cover');
    expect([sure.hsCode, sure.confidence >= CLASSIFICATION_REVIEW_THRESHOLD]).toEqual(['9401.61', true]);
    const metal = classify('Armchair, tubular steel frame, velvet upholstery');
    expect(metal.hsCode).toBe('9401.71');
    const unsure = classify('Upholstered lounge chair');
    expect(unsure.confidence).toBeLessThan(CLASSIFICATION_REVIEW_THRESHOLD);
    expect(unsure.alternatives.map((a) => a.hsCode)).toContain('9401.71');
  });

  it('puts a seat convertible into a bed under 9401.4x before the upholstered subheadings', () => {
    expect(classify('3-seat sofa bed, grey fabric').hsCode).toBe('9401.49');
    expect(classify('Futon sofa bed, solid pine frame').hsCode).toBe('9401.41');
  });

  it('classifies sample catalog products to their headings', () => {
    expect(classify('16d common nails, 50 lb box').hsCode).toBe('7317.00');
    expect(classify('Hex bolt M10, zinc plated, box of 100').hsCode).toBe('7318.15');
    expect(classify('14 in laptop, aluminum chassis').hsCode).toBe('8471.30');
    expect(classify('Queen memory-foam mattress').hsCode).toBe('9404.21');
    expect(classify('Queen bed frame, solid oak').hsCode).toBe('9403.50');
    expect(classify('Primed pine baseboard moulding').hsCode).toBe('4409.10');
  });

  it("keeps an excluded word's goods out of a heading (a laptop bag is not a laptop, nail polish not a nail)", () => {
    expect(classify('Laptop bag, padded nylon').hsCode).toBeNull();
    expect(classify('Nail polish, red').hsCode).toBeNull();
    expect(classify('Brass wood screws').hsCode).toBeNull();
  });

  it('answers no code, confidence 0 and a rationale when no rule matches', () => {
    const result = classify('Ceramic flower vase');
    expect(result).toMatchObject({ hsCode: null, confidence: 0, alternatives: [] });
    expect(result.rationale).toContain('no heading');
  });

  it('ranks at most the listed number of alternatives, best first, never the chosen code', () => {
    const result = classify('stool');
    expect(result.alternatives.length).toBeLessThanOrEqual(MAX_ALTERNATIVES);
    expect(result.alternatives.map((a) => a.hsCode)).not.toContain(result.hsCode);
    const confidences = result.alternatives.map((a) => a.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    for (const a of result.alternatives) expect(a.description.length).toBeGreaterThan(0);
  });

  it('gives the same answer for the same input, whatever the origin', () => {
    const a = classifyProductText({ productName: 'Upholstered lounge chair', originCountry: 'VN', sku: 'X' });
    const b = classifyProductText({ productName: 'Upholstered lounge chair', originCountry: null });
    expect(a).toEqual(b);
  });
});
