import { describe, expect, it } from 'vitest';
import { displayWidth, toCellText, truncateToWidth } from './terminal-text.js';

describe('toCellText', () => {
  it.each([
    ['plain', 'values differ', 'values differ'],
    ['newlines and tabs become spaces', 'Binder Error:\nLINE 1:\tSELECT', 'Binder Error: LINE 1: SELECT'],
    ['CRLF is one space', 'a\r\nb', 'a b'],
    ['ANSI colors are dropped', '\u001b[31mred\u001b[0m text', 'red text'],
    ['an OSC hyperlink keeps only its text', '\u001b]8;;https://x.io\u0007link\u001b]8;;\u0007', 'link'],
    ['other controls vanish', 'a\u0000b\u0007c\u007fd\u009be', 'abcde'],
    ['cursor movement is dropped', 'a\u001b[2K\u001b[1Gb', 'ab'],
  ])('%s', (_label, input, expected) => {
    expect(toCellText(input)).toBe(expected);
  });
});

describe('displayWidth', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['✓ ✗ – — …', 9],
    ['中文', 4],
    ['ｆｕｌｌ', 8],
    ['👍', 2],
    ['👍🏽', 2],
    ['e\u0301', 1],
    ['한국어', 6],
    ['👨\u200d👩\u200d👧', 2],
    ['🇯🇵', 2],
  ])('%j is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('truncateToWidth', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['values differ', 8, 'values …'],
    ['abc', 1, '…'],
    ['abc', 0, ''],
    ['中文字符', 5, '中文…'],
    ['中文字符', 4, '中…'],
    ['👍👍👍', 4, '👍…'],
    ['e\u0301e\u0301e\u0301', 2, 'e\u0301…'],
    ['👨\u200d👩\u200d👧👨\u200d👩\u200d👧', 3, '👨\u200d👩\u200d👧…'],
  ])('%j to %i → %j', (text, width, expected) => {
    const cut = truncateToWidth(text, width);
    expect(cut).toBe(expected);
    expect(displayWidth(cut)).toBeLessThanOrEqual(width);
  });
});
