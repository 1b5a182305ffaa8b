import { describe, expect, it } from 'vitest';
import type { Round } from './load.js';
import { judge, pairedRatio, TARGETS, type ScenarioResult } from './report.js';
import { SCENARIOS } from './scenarios.js';

const round = (perSecond: number, rssMb = 100): Round => ({ perSecond, p50: 0, p99: 1, requests: perSecond * 5, rssMb, cpuUsPerRequest: 50 });
const scenario = (id: string) => SCENARIOS.find((s) => s.id === id)!;
const verdict = (verdicts: ReturnType<typeof judge>, text: string) => verdicts.find((v) => v.target.includes(text))!;

describe("the bench's verdicts (issue 15 targets)", () => {
  it('passes a read at 5x Prism and 30 % of the Koa+ajv app, and fails it just below either bar', () => {
    const read = (sim: number): ScenarioResult => ({ scenario: scenario('get-job'), rounds: { simulator: [round(sim)], prism: [round(1000)], reference: [round(10_000)] } });
    const at = judge({ results: [read(5000)], startup: { fresh: 500, afterCrash: null }, storeGrowth: null, large: null });
    expect(verdict(at, "Prism's mock").pass).toBe(true);
    expect(verdict(at, 'Koa+ajv').pass).toBe(true);
    const below = judge({ results: [read(2999)], startup: { fresh: 500, afterCrash: null }, storeGrowth: null, large: null });
    expect(verdict(below, "Prism's mock").pass).toBe(false);
    expect(verdict(below, 'Koa+ajv').pass).toBe(false);
  });

  it('holds a persisted write to 2x Prism and only reports the POSTs the issue sets no target for', () => {
    const results: ScenarioResult[] = [
      { scenario: scenario('sima-batch'), rounds: { simulator: [round(1999)], prism: [round(1000)] } },
      { scenario: scenario('token'), rounds: { simulator: [round(100)], prism: [round(1000)] } },
    ];
    const verdicts = judge({ results, startup: { fresh: 500, afterCrash: null }, storeGrowth: null, large: null });
    expect(verdict(verdicts, 'batch').pass).toBe(false);
    expect(verdict(verdicts, 'token').pass).toBeNull();
  });

  it('judges a baseline checkout round by round: drift that hits both rounds of a pair cancels out', () => {
    // The machine halves its speed in round 2: both builds' rates halve, their ratio stays 0.96 / 0.90.
    const rounds = (ours: number[], theirs: number[]): ScenarioResult => ({ scenario: scenario('get-job'), rounds: { simulator: ours.map((r) => round(r)), baseline: theirs.map((r) => round(r)), prism: [round(1000)], reference: [round(10_000)] } });
    expect(pairedRatio([round(960), round(480), round(960)], [round(1000), round(500), round(1000)])).toBeCloseTo(0.96);
    const within = judge({ baseline: '../old', results: [rounds([960, 480, 960], [1000, 500, 1000])], startup: { fresh: 500, afterCrash: null }, storeGrowth: null, large: null });
    expect(verdict(within, 'baseline ../old')).toMatchObject({ measured: '96.0 %', pass: true });
    const slower = judge({ results: [rounds([900, 450, 900], [1000, 500, 1000])], startup: { fresh: 500, afterCrash: null }, storeGrowth: null, large: null });
    expect(verdict(slower, 'baseline').pass).toBe(false);
    const without = judge({ results: [rounds([900], [])].map((r) => ({ ...r, rounds: { simulator: r.rounds.simulator, prism: r.rounds.prism } })), startup: { fresh: 500, afterCrash: null }, storeGrowth: null, large: null });
    expect(without.some((v) => v.target.includes('baseline'))).toBe(false);
  });

  it('compares RSS on the read scenarios only, and fails a start-up at its bound', () => {
    const results: ScenarioResult[] = [
      { scenario: scenario('get-job'), rounds: { simulator: [round(5000, 150)], prism: [round(1000, 160)], reference: [round(6000)] } },
      { scenario: scenario('sima-batch'), rounds: { simulator: [round(3000, 900)], prism: [round(1000, 160)] } },
    ];
    const verdicts = judge({ results, startup: { fresh: TARGETS.freshStartupMs, afterCrash: TARGETS.afterCrashStartupMs - 1 }, storeGrowth: null, large: null });
    expect(verdict(verdicts, 'RSS').pass).toBe(true);
    expect(verdict(verdicts, 'fresh store').pass).toBe(false);
    expect(verdict(verdicts, 'after a crash').pass).toBe(true);
  });
});
