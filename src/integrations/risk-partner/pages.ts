import { escape, layout } from '../../http/html.js';
import { type Answers, QUESTIONS, type Question } from './questionnaire.js';
import type { StoredResult } from './questionnaire-service.js';

/** The questionnaire pages: no JavaScript, every value escaped, the link's token in a hidden field. */
const STYLE = `
  main { max-width: 40rem; margin: 1rem 0; }
  fieldset { border: 1px solid #d5dbe2; border-radius: 8px; margin: 0 0 1rem; padding: .75rem 1rem; }
  fieldset.missing { border-color: #c0392b; background: #fff7f6; }
  legend { font-weight: 600; padding: 0 .35rem; }
  label.option { font-weight: 400; margin: .35rem 0; display: flex; gap: .5rem; align-items: baseline; cursor: pointer; }
  .score { font-size: 2.5rem; font-weight: 700; margin: .5rem 0 0; }
  .category { font-size: 1.25rem; margin: .25rem 0 1.25rem; }
  .note { color: #52606d; }
`;

function questionBlock(question: Question, index: number, chosen: string | undefined, missing: boolean) {
  const options = question.answers
    .map(
      (a) =>
        `<label class="option"><input type="radio" name="${escape(question.key)}" value="${escape(a.key)}"${a.key === chosen ? ' checked' : ''}> ${escape(a.label)}</label>`,
    )
    .join('\n');
  return `<fieldset id="q-${escape(question.key)}"${missing ? ' class="missing"' : ''}>
<legend>${index + 1}. ${escape(question.text)}</legend>
${options}
</fieldset>`;
}

export function questionnairePage(input: {
  action: string;
  token: string;
  clientName: string;
  current: StoredResult | null;
  answers?: Answers;
  missing?: Question[];
}) {
  const missing = new Set((input.missing ?? []).map((q) => q.key));
  const numbers = QUESTIONS.flatMap((q, i) => (missing.has(q.key) ? [String(i + 1)] : []));
  const alert =
    numbers.length > 0
      ? `<p class="error" role="alert">Please answer every question. Not answered: ${numbers.length === 1 ? 'question' : 'questions'} ${numbers.join(', ')}.</p>`
      : '';
  const previous = input.current
    ? `<p class="note">Your current result is ${input.current.riskScore} (${escape(input.current.category)}). Answering again replaces it; the earlier result is kept.</p>`
    : '';
  return layout(
    'Risk questionnaire',
    `<h1>Risk questionnaire</h1>
<p class="lead">For ${escape(input.clientName)}. ${QUESTIONS.length} questions; choose the answer closest to your view.</p>
${previous}
${alert}
<form method="post" action="${escape(input.action)}">
<input type="hidden" name="token" value="${escape(input.token)}">
${QUESTIONS.map((q, i) => questionBlock(q, i, input.answers?.[q.key], missing.has(q.key))).join('\n')}
<button type="submit">See my result</button>
</form>`,
    STYLE,
  );
}

export function resultPage(input: { clientName: string; result: StoredResult; againUrl: string }) {
  return layout(
    'Your risk profile',
    `<h1>Your risk profile</h1>
<p class="lead">${escape(input.clientName)}</p>
<p class="score"><span id="risk-score">${input.result.riskScore}</span> <small>/ 100</small></p>
<p class="category" id="risk-category">${escape(input.result.category)}</p>
<p class="note">Your advisor can now see this result. Thank you.</p>
<p><a href="${escape(input.againUrl)}">Answer the questionnaire again</a></p>`,
    STYLE,
  );
}

export function linkErrorPage(message: string) {
  return layout('Risk questionnaire', `<h1>Risk questionnaire</h1><p class="error" role="alert">${escape(message)}</p>`, STYLE);
}
