import { describe, expect, it } from 'vitest';
import { refusalOfPlan, trinoStatementText } from './trino-statement-check.js';

const node = (name: string, ...children: object[]) => ({
  id: '1',
  name,
  descriptor: {},
  outputs: [],
  children,
});

describe('refusalOfPlan', () => {
  it('lets a query plan through', () => {
    expect(
      refusalOfPlan(JSON.stringify(node('Output', node('Aggregate', node('TableScan')))), 'Trino'),
    ).toBeUndefined();
    expect(
      refusalOfPlan(JSON.stringify(node('Output', node('TableFunctionProcessor'))), 'Trino'),
    ).toBeUndefined();
  });

  it.each([
    [
      'an INSERT',
      node('Output', node('TableCommit', node('TableWriter', node('Values')))),
      'TableCommit, TableWriter',
    ],
    ['a metadata DELETE', node('Output', node('TableDelete')), 'TableDelete'],
    ['a MERGE', node('Output', node('TableCommit', node('MergeWriter'))), 'TableCommit, MergeWriter'],
    ['a distributed plan with a writer', { 0: node('Output'), 1: node('TableWriter') }, 'TableWriter'],
  ])('refuses %s', (_label, plan, nodes) => {
    expect(refusalOfPlan(JSON.stringify(plan), 'Trino')).toBe(
      `Trino's plan of the statement writes (${nodes})`,
    );
  });

  it('refuses a statement Trino explains with its own text (DDL, SET SESSION)', () => {
    expect(refusalOfPlan('CREATE TABLE intruder (\n   a integer\n)', 'Trino')).toContain(
      'Trino plans no query',
    );
    expect(refusalOfPlan('"text"', 'Athena')).toBe('Athena plans no query for this statement');
  });
});

describe('trinoStatementText', () => {
  it('drops trailing semicolons only', () => {
    expect(trinoStatementText("  SELECT ';' ;; \n")).toBe("SELECT ';'");
  });
});
