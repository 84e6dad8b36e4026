/**
 * The mock's copy of the legal X-Signature layouts (mock/webhooks/signature.ts, for
 * the signatureLayouts variant) is the one list of harness/catalog/signature-forms.ts:
 * every form but those with variants of their own (base64 v, t in seconds), laid out alike.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_FORMS } from '../../harness/catalog/signature-forms.js';
import { SIGNATURE_LAYOUTS } from '../../mock/webhooks/signature.js';

const OWN_VARIANTS = new Set(['v-base64', 't-seconds']); // the signatureEncoding and signatureTimestampSeconds variants

describe('the mock\'s signature layouts', () => {
  it('are the legal forms of the shared list, one for one', () => {
    const mac = createHmac('sha256', 'k').update('1764150000123.{}').digest();
    const t = '1764150000123';
    const forms = SIGNATURE_FORMS.filter((f) => !OWN_VARIANTS.has(f.id));
    expect(SIGNATURE_LAYOUTS.map((l) => l.id)).toEqual(forms.map((f) => f.id));
    for (const form of forms) {
      const layout = SIGNATURE_LAYOUTS.find((l) => l.id === form.id)!;
      expect(layout.header(t, mac.toString('hex')), form.id).toBe(form.header(form.t(Number(t)), form.v(mac)));
    }
  });
});
