import { escape, layout } from '../http/html.js';

/** The server-rendered pages of the sign-in flow; forms carry the flow's CSRF token. */
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

/** What a code this service issues looks like; anything else is shown, never put in a command to copy. */
const CODE_SHAPE = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * The demo partner's redirect target: shows the authorization code and state the browser brought
 * back, with the curl command that exchanges the code, so the flow can be tried without a client.
 */
export function codePage(input: { code?: string; state?: string; error?: string; errorDescription?: string; tokenUrl: string; redirectUri: string }) {
  const state = input.state === undefined ? '' : `<p>State (compare it with the one you sent):</p><pre id="state">${escape(input.state)}</pre>`;
  if (input.error !== undefined) {
    return layout(
      'No code: sign-in not completed',
      `<h1>No code</h1>
<p class="error" role="alert">The sign-in ended without a code: <strong id="error">${escape(input.error)}</strong>${input.errorDescription ? ` (${escape(input.errorDescription)})` : ''}.</p>
${state}
<p class="lead">Start again from the sign-in page to get a new code.</p>`,
    );
  }
  const code = input.code ?? '';
  const command = CODE_SHAPE.test(code)
    ? `<p>Exchange it for tokens within a minute (codes are short-lived and work once):</p>
<pre id="exchange">curl -s -X POST '${escape(input.tokenUrl)}' \\
  -d grant_type=authorization_code \\
  -d code=${escape(code)} \\
  --data-urlencode redirect_uri='${escape(input.redirectUri)}' \\
  -d client_id="$ID" --data-urlencode client_secret="$SECRET"</pre>
<p class="note">Add <code>-d code_verifier=…</code> when the sign-in was started with a <code>code_challenge</code>.</p>`
    : '<p class="error" role="alert">This does not look like a code this service issues; no command is offered for it.</p>';
  return layout(
    'Your authorization code',
    `<h1>Your authorization code</h1>
<p class="lead">The sign-in went through. Copy the code below into your application, or exchange it yourself.</p>
<pre id="code">${escape(code)}</pre>
${state}
${command}`,
  );
}
