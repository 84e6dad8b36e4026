/**
 * The one list of legal X-Signature forms (harness/catalog/signature-forms.ts):
 * the service checks accept every form from a service (format, HMAC, freshness),
 * and each form shows exactly its own departure from the plain one, so a fault
 * can break one form alone.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_FORMS, formOf, formsShownBy, headerInForm } from '../../../harness/catalog/signature-forms.js';
import { verifySignature } from '../../../harness/wire/signature.js';
import { formatProblems } from '../../../suites/support/signatures.js';

const KEY = 'signature-forms-test-key';
const BODY = '{"LockID":"3F2A9C0B1D4E5F60718293A4","EventType":"status","Event":"lock","Lock":{"Name":"Tür «Süd» 🔒"}}';
const NOW = 1_764_150_000_123;
const sign = (key: string) => (t: string) => createHmac('sha256', key).update(`${t}.${BODY}`, 'utf8').digest();

describe('the legal X-Signature forms', () => {
  for (const form of SIGNATURE_FORMS) {
    it(`${form.id}: the service checks judge ${form.title} well formed, valid and current`, () => {
      const { header } = headerInForm(form, NOW, sign(KEY));
      expect(formatProblems(header), header).toEqual([]);
      const verdict = verifySignature({ header, body: BODY, apiKey: KEY, nowMs: NOW + 1500 });
      expect(verdict.code, verdict.detail).toBe('ok');
      expect(verdict.ok).toBe(true);
    });

    it(`${form.id}: shows its own departure only, and a wrong key still fails in it`, () => {
      const { header } = headerInForm(form, NOW, sign(KEY));
      expect(formsShownBy(header)).toEqual(form.id === 'plain' ? [] : [form.id]);
      expect(formOf(header)).toBe(form.id);
      const forged = headerInForm(form, NOW, sign('another-key')).header;
      expect(verifySignature({ header: forged, body: BODY, apiKey: KEY, nowMs: NOW }).code).toBe('mismatch');
    });
  }

  it('has unique IDs fit to be slice values', () => {
    const ids = SIGNATURE_FORMS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
  });
});
