/**
 * The one HTML layout of the mock's pages: inline CSS, no external assets,
 * and every value passed through escape-html by the `html` tag.
 */
import escapeHtml from 'escape-html';

/** Marks a string as already-safe HTML (the result of `html`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Template tag: interpolated values are escaped unless they are SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

const STYLE = `
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
         font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #eef2f7; color: #1d2633; }
  main { width: min(26rem, 92vw); background: #fff; border-radius: 14px; padding: 2rem;
         box-shadow: 0 10px 30px rgba(20, 40, 80, .12); }
  .brand { font-weight: 700; letter-spacing: .02em; color: #2456c6; margin-bottom: .25rem; }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; }
  label { display: block; font-weight: 600; margin: .9rem 0 .3rem; }
  input[type=email], input[type=password], input[type=text] { width: 100%; padding: .65rem .75rem; font-size: 1rem;
         border: 1px solid #c4cdd9; border-radius: 8px; }
  input:focus { outline: 2px solid #2456c6; border-color: transparent; }
  .actions { display: flex; gap: .75rem; margin-top: 1.4rem; }
  button { flex: 1; padding: .7rem 1rem; font-size: 1rem; font-weight: 600; border-radius: 8px; border: 0; cursor: pointer;
         background: #2456c6; color: #fff; }
  button.secondary { background: #e4e9f1; color: #1d2633; }
  .error { background: #fde8e8; color: #8a1c1c; border-radius: 8px; padding: .6rem .8rem; margin-bottom: 1rem; }
  .note { color: #5b6678; font-size: .9rem; }
  ul.scopes { padding-left: 1.2rem; }
  .phone { background: #1d2633; color: #e9eef6; border-radius: 22px; padding: 1.5rem; font-family: ui-monospace, monospace; }
  .phone .code { font-size: 2rem; letter-spacing: .3em; color: #fff; }
  code { word-break: break-all; }
  main.wide { width: min(76rem, 96vw); min-width: 0; margin: 2rem 0; }
  main.wide h2 { font-size: 1.1rem; margin: 1.8rem 0 .6rem; border-top: 1px solid #e4e9f1; padding-top: 1.2rem; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e4e9f1; vertical-align: top; }
  th { color: #5b6678; font-weight: 600; white-space: nowrap; }
  td code { word-break: normal; overflow-wrap: normal; white-space: nowrap; font-size: .85rem; }
  details summary { cursor: pointer; color: #2456c6; margin: .5rem 0; }
  td.nowrap, th.nowrap { white-space: nowrap; }
  .scroll { overflow-x: auto; max-width: 100%; }
  .scroll table { min-width: 44rem; }
  pre { background: #1d2633; color: #e9eef6; border-radius: 8px; padding: .8rem 1rem; overflow-x: auto; max-width: 100%;
         font: .82rem/1.45 ui-monospace, "SFMono-Regular", Menlo, monospace; white-space: pre; }
  nav.links a { margin-right: 1rem; }
  .pill { display: inline-block; border-radius: 999px; padding: 0 .55rem; font-size: .8rem; font-weight: 600; background: #e4e9f1; }
  .pill.ok { background: #dff3e4; color: #1b6b34; }
  .pill.bad { background: #fde8e8; color: #8a1c1c; }
  .pill.warn { background: #fff3d6; color: #7a5300; }
`;

/** A whole page; `wide` for tables and code (the landing and deliveries pages). */
export function page(title: string, body: SafeHtml, opts: { wide?: boolean } = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body><main${new SafeHtml(opts.wide ? ' class="wide"' : '')}>
<div class="brand">Lock Access Service</div>
${body}
</main></body>
</html>
`.value;
}

/** A page that only explains an error. */
export function errorPage(title: string, message: string): string {
  return page(title, html`<h1>${title}</h1><p class="error" role="alert">${message}</p>`);
}
