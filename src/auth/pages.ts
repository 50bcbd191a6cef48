/**
 * The server-rendered pages of the sign-in flow. No JavaScript; every value is escaped; forms
 * carry the flow's CSRF token.
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
  body { font-family: system-ui, sans-serif; background: #f4f6f8; color: #1d2733; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  main { background: #fff; border-radius: 10px; box-shadow: 0 2px 12px rgba(0,0,0,.08); padding: 2rem 2.25rem; width: min(24rem, 90vw); }
  h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
  p.lead { color: #52606d; margin: 0 0 1.5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .35rem; }
  input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: .6rem .7rem; border: 1px solid #bcc5cf; border-radius: 6px; font-size: 1rem; }
  button { margin-top: 1.5rem; padding: .65rem 1.2rem; border: 0; border-radius: 6px; font-size: 1rem; cursor: pointer; background: #1f5fae; color: #fff; }
  button.secondary { background: #e4e8ee; color: #1d2733; margin-left: .5rem; }
  .error { background: #fdecea; color: #8a1c12; border-radius: 6px; padding: .6rem .75rem; margin-bottom: 1rem; }
${style}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function signInPage(input: { appName: string; csrf: string; error?: string; userName?: string }) {
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p class="lead">${escape(input.appName)} is asking to use your account.</p>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}
<form method="post" action="signin">
  <input type="hidden" name="csrf" value="${escape(input.csrf)}">
  <label for="username">User name</label>
  <input id="username" name="username" type="text" autocomplete="username" required value="${escape(input.userName ?? '')}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>`,
  );
}

export function consentPage(input: { appName: string; userName: string; csrf: string }) {
  return layout(
    'Allow access',
    `<h1>Allow access?</h1>
<p class="lead">Signed in as ${escape(input.userName)}. <strong>${escape(input.appName)}</strong> will be able to use the platform on your behalf.</p>
<form method="post" action="consent">
  <input type="hidden" name="csrf" value="${escape(input.csrf)}">
  <button type="submit" name="decision" value="allow">Allow</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  );
}

export function errorPage(message: string) {
  return layout('Sign-in problem', `<h1>Sign-in problem</h1><p class="error" role="alert">${escape(message)}</p>`);
}
