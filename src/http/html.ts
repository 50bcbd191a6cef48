import type { FastifyReply } from 'fastify';

/**
 * The shell of the service's few server-rendered pages (sign-in, consent, questionnaire, the
 * start page, the OAuth code page): no JavaScript, every value escaped, usable from a 320 px
 * phone to a desktop.
 */
export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page shell every server-rendered page shares; `style` adds rules after the shared ones. */
export function layout(title: string, body: string, style = '') {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
  *, *::before, *::after { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; background: #f4f6f8; color: #1d2733; display: grid; place-items: center; min-height: 100vh; margin: 0; padding: 1rem; }
  main { background: #fff; border-radius: 10px; box-shadow: 0 2px 12px rgba(0,0,0,.08); padding: 2rem 2.25rem; width: 100%; max-width: 26rem; min-width: 0; overflow-wrap: anywhere; }
  h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
  p.lead { color: #52606d; margin: 0 0 1.5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .35rem; }
  input[type=text], input[type=password] { width: 100%; max-width: 100%; padding: .6rem .7rem; border: 1px solid #bcc5cf; border-radius: 6px; font-size: 1rem; }
  button { margin-top: 1.5rem; padding: .65rem 1.2rem; border: 0; border-radius: 6px; font-size: 1rem; cursor: pointer; background: #1f5fae; color: #fff; max-width: 100%; }
  button.secondary { background: #e4e8ee; color: #1d2733; margin-left: .5rem; }
  .error { background: #fdecea; color: #8a1c12; border-radius: 6px; padding: .6rem .75rem; margin-bottom: 1rem; }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; }
  pre { background: #f4f6f8; border-radius: 6px; padding: .6rem .75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
  @media (max-width: 30rem) {
    body { padding: .5rem; place-items: start center; }
    main { padding: 1.25rem 1rem; }
  }
${style}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** Sends a server-rendered page with headers that keep it out of caches, frames and referrers. */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .send(html);
}
