/**
 * The built-in partner's risk questionnaire and its scoring. docs/risk-profiling.md prints the
 * same questions, points and bands; questionnaire.test.ts holds the two together.
 */
export const QUESTIONNAIRE_VERSION = 1;

export interface Answer {
  key: string;
  label: string;
  points: number;
}

export interface Question {
  key: string;
  text: string;
  answers: Answer[];
}

const q = (key: string, text: string, answers: [string, string, number][]): Question => ({
  key,
  text,
  answers: answers.map(([answerKey, label, points]) => ({ key: answerKey, label, points })),
});

export const QUESTIONS: Question[] = [
  q('horizon', 'When do you expect to need most of the money in this portfolio?', [
    ['lt3', 'In less than 3 years', 0],
    ['3to5', 'In 3 to 5 years', 1],
    ['6to10', 'In 6 to 10 years', 2],
    ['11to20', 'In 11 to 20 years', 3],
    ['gt20', 'In more than 20 years', 4],
  ]),
  q('goal', 'What is your main goal for this money?', [
    ['preserve', 'Keep what I have', 0],
    ['income', 'Steady income', 1],
    ['balanced', 'A balance of income and growth', 2],
    ['growth', 'Long-term growth', 3],
    ['maximum', 'The highest growth possible', 4],
  ]),
  q('drop20', 'Your portfolio loses 20% of its value in a few months. What do you do?', [
    ['sellAll', 'Sell everything', 0],
    ['sellSome', 'Sell some of it', 1],
    ['hold', 'Hold and wait', 2],
    ['buySome', 'Buy a little more', 3],
    ['buyMore', 'Buy a lot more', 4],
  ]),
  q('income', 'How stable is your income over the next five years?', [
    ['none', 'I have no regular income', 0],
    ['uncertain', 'Uncertain', 1],
    ['stable', 'Stable', 2],
    ['growing', 'Stable and likely to grow', 3],
    ['secure', 'Very secure, well above my spending', 4],
  ]),
  q('experience', 'Which investments have you owned?', [
    ['none', 'None', 0],
    ['deposits', 'Savings accounts and CDs only', 1],
    ['funds', 'Mutual funds or ETFs', 2],
    ['stocks', 'Individual stocks and bonds', 3],
    ['advanced', 'Options, futures or alternative investments', 4],
  ]),
  q('knowledge', 'How would you describe your knowledge of investing?', [
    ['none', 'None', 0],
    ['limited', 'Limited', 1],
    ['moderate', 'Moderate', 2],
    ['good', 'Good', 3],
    ['expert', 'Expert', 4],
  ]),
  q('liquidity', 'How much of this portfolio may you need to withdraw in the next two years?', [
    ['most', 'More than half', 0],
    ['quarter', 'About a quarter', 1],
    ['little', 'A little', 3],
    ['nothing', 'Nothing', 4],
  ]),
  q('emergency', 'How many months of expenses do you hold in cash outside this portfolio?', [
    ['none', 'None', 0],
    ['lt3', 'Less than 3 months', 1],
    ['3to6', '3 to 6 months', 2],
    ['6to12', '6 to 12 months', 3],
    ['gt12', 'More than 12 months', 4],
  ]),
  q('range', 'Which range of one-year results would you choose for this portfolio?', [
    ['r2', 'From -2% to +4%', 0],
    ['r6', 'From -6% to +10%', 1],
    ['r12', 'From -12% to +18%', 2],
    ['r20', 'From -20% to +28%', 3],
    ['r30', 'From -30% to +40%', 4],
  ]),
  q('maxLoss', 'What is the largest one-year loss you could bear without changing your plans?', [
    ['lt5', 'Less than 5%', 0],
    ['5to10', '5% to 10%', 1],
    ['10to20', '10% to 20%', 2],
    ['20to30', '20% to 30%', 3],
    ['gt30', 'More than 30%', 4],
  ]),
];

export const CATEGORIES = [
  { name: 'Conservative', from: 1, to: 20 },
  { name: 'Moderately Conservative', from: 21, to: 40 },
  { name: 'Moderate', from: 41, to: 60 },
  { name: 'Moderately Aggressive', from: 61, to: 80 },
  { name: 'Aggressive', from: 81, to: 100 },
] as const;

export type RiskCategory = (typeof CATEGORIES)[number]['name'];

const extreme = (pick: (points: number[]) => number) => QUESTIONS.reduce((sum, question) => sum + pick(question.answers.map((a) => a.points)), 0);
export const MIN_POINTS = extreme((p) => Math.min(...p));
export const MAX_POINTS = extreme((p) => Math.max(...p));

export interface Score {
  points: number;
  riskScore: number;
  category: RiskCategory;
}

/** Linear from 1 (fewest points) to 100 (most); a half rounds up. */
export function scaleToRiskScore(points: number): number {
  return 1 + Math.round((99 * (points - MIN_POINTS)) / (MAX_POINTS - MIN_POINTS));
}

export function categoryOf(riskScore: number): RiskCategory {
  return CATEGORIES.find((c) => riskScore >= c.from && riskScore <= c.to)!.name;
}

export type Answers = Record<string, string>;

/** The questions without a valid answer, in questionnaire order. */
export function unanswered(answers: Answers): Question[] {
  return QUESTIONS.filter((question) => !question.answers.some((a) => a.key === answers[question.key]));
}

/** Scores a complete answer set; call `unanswered` first. */
export function score(answers: Answers): Score {
  const missing = unanswered(answers);
  if (missing.length > 0) throw new Error(`unanswered: ${missing.map((m) => m.key).join(', ')}`);
  const points = QUESTIONS.reduce((sum, question) => sum + question.answers.find((a) => a.key === answers[question.key])!.points, 0);
  const riskScore = scaleToRiskScore(points);
  return { points, riskScore, category: categoryOf(riskScore) };
}
