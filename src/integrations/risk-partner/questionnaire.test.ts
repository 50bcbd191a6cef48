import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, MAX_POINTS, MIN_POINTS, QUESTIONS, categoryOf, scaleToRiskScore, score, unanswered } from './questionnaire.js';
import { answersOfPoints } from './test-support.js';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'risk-profiling.md'), 'utf8');

/** The answer to each question worth the given points. */
function answersOf(points: number[]) {
  return Object.fromEntries(
    QUESTIONS.map((q, i) => {
      const answer = q.answers.find((a) => a.points === points[i]);
      if (!answer) throw new Error(`question ${q.key} has no answer worth ${points[i]}`);
      return [q.key, answer.key];
    }),
  );
}

describe('risk questionnaire scoring', () => {
  it('scores known answer sets', () => {
    expect(score(answersOfPoints(0))).toEqual({ points: 0, riskScore: 1, category: 'Conservative' });
    expect(score(answersOfPoints(4))).toEqual({ points: 40, riskScore: 100, category: 'Aggressive' });
    expect(score(answersOf([2, 2, 2, 2, 2, 2, 1, 2, 2, 2]))).toEqual({ points: 19, riskScore: 48, category: 'Moderate' });
    // 99 × 20 / 40 = 49.5: the half rounds up.
    expect(score(answersOf([2, 2, 2, 2, 2, 2, 3, 2, 2, 1]))).toEqual({ points: 20, riskScore: 51, category: 'Moderate' });
    expect(score(answersOf([0, 1, 0, 1, 0, 1, 1, 1, 0, 1]))).toEqual({ points: 6, riskScore: 16, category: 'Conservative' });
    expect(score(answersOf([1, 1, 1, 1, 1, 1, 0, 1, 1, 1]))).toEqual({ points: 9, riskScore: 23, category: 'Moderately Conservative' });
    expect(score(answersOf([3, 3, 3, 3, 3, 3, 3, 3, 3, 3]))).toEqual({ points: 30, riskScore: 75, category: 'Moderately Aggressive' });
  });

  it('keeps 10 questions, each from 0 to 4 points, and a score from 1 to 100 that never falls as points rise', () => {
    expect(QUESTIONS).toHaveLength(10);
    expect(new Set(QUESTIONS.map((q) => q.key)).size).toBe(10);
    for (const q of QUESTIONS) {
      expect(Math.min(...q.answers.map((a) => a.points)), q.key).toBe(0);
      expect(Math.max(...q.answers.map((a) => a.points)), q.key).toBe(4);
      expect(new Set(q.answers.map((a) => a.key)).size, q.key).toBe(q.answers.length);
    }
    expect([MIN_POINTS, MAX_POINTS]).toEqual([0, 40]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 39 }), (points) => {
        const [a, b] = [scaleToRiskScore(points), scaleToRiskScore(points + 1)];
        return a >= 1 && b <= 100 && b > a && categoryOf(a) !== undefined;
      }),
    );
  });

  it('names unanswered questions, ignoring answers that are not among the choices', () => {
    const answers = { ...answersOfPoints(1), goal: 'lottery', range: '' } as Record<string, string>;
    delete answers.maxLoss;
    expect(unanswered(answers).map((q) => q.key)).toEqual(['goal', 'range', 'maxLoss']);
    expect(() => score(answers)).toThrow(/unanswered/);
  });
});

describe('docs/risk-profiling.md', () => {
  it('prints the questions, answers and points the code scores', () => {
    const documented = [...DOC.matchAll(/^### (\d+)\. `(\w+)`: (.+)\n\n\| key \| answer \| points \|\n\|---\|---\|---\|\n((?:\|.*\|\n)+)/gm)].map((m) => ({
      key: m[2],
      text: m[3],
      answers: [...m[4]!.matchAll(/^\| `(\w+)` \| (.+) \| (\d+) \|$/gm)].map((a) => ({ key: a[1], label: a[2], points: Number(a[3]) })),
    }));
    expect(documented).toEqual(QUESTIONS);
  });

  it('prints the category bands the code applies', () => {
    const table = DOC.split('| category | from | to |')[1]!.split('\n\n')[0]!;
    const bands = [...table.matchAll(/^\| ([A-Za-z ]+) \| (\d+) \| (\d+) \|$/gm)].map((m) => ({ name: m[1], from: Number(m[2]), to: Number(m[3]) }));
    expect(bands).toEqual(CATEGORIES);
    for (let riskScore = 1; riskScore <= 100; riskScore++) {
      expect(categoryOf(riskScore)).toBe(bands.find((b) => riskScore >= b.from && riskScore <= b.to)!.name);
    }
  });

  it('prints worked examples the code reproduces', () => {
    const examples = [...DOC.matchAll(/^\| ((?:\d,){9}\d) \| (\d+) \| (\d+) \| ([A-Za-z ]+) \|$/gm)];
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const [, points, total, riskScore, category] of examples) {
      expect(score(answersOf(points!.split(',').map(Number))), points).toEqual({ points: Number(total), riskScore: Number(riskScore), category });
    }
  });
});
