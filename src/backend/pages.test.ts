import { describe, expect, it } from 'vitest';
import { authorizePage, cliLoginPage, homePage, loginPage, safeNext } from './pages.js';

describe('safeNext', () => {
  it.each([
    ['/', '/'],
    ['/cli/authorize?state=x&redirect_uri=y', '/cli/authorize?state=x&redirect_uri=y'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    // Browsers drop tabs and newlines from a Location and read a backslash as "/": all //evil.
    ['/\t/evil.example', '/'],
    ['/\n/evil.example/', '/'],
    ['\\/evil.example', '/'],
    ['/chat/', '/chat/'],
    ['/chat/#/c/1', '/chat/#/c/1'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['', '/'],
    [undefined, '/'],
    [['/a'], '/'],
  ])('%j → %s', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });
});

describe('pages', () => {
  it('escapes what users typed', async () => {
    const login = String(
      await loginPage({ next: '/"><script>x</script>', email: '"><img src=x onerror=alert(1)>' }),
    );
    expect(login).not.toContain('<script>x</script>');
    expect(login).not.toContain('<img src=x');
    const home = String(
      await homePage({
        user: { id: '1', email: 'a@b.co', name: 'x' },
        projectName: '<b>shop</b>',
        owner: false,
      }),
    );
    expect(home).toContain('&lt;b&gt;shop&lt;/b&gt;');
  });

  it('the approval page posts the log-in parameters back unchanged', async () => {
    const page = String(
      await authorizePage({
        user: { id: '1', email: 'ada@example.com', name: 'Ada' },
        params: {
          state: 'st"ate',
          redirectUri: 'http://127.0.0.1:5/callback',
          codeChallenge: 'c'.repeat(43),
        },
      }),
    );
    expect(page).toContain('value="st&quot;ate"');
    expect(page).toContain('value="http://127.0.0.1:5/callback"');
    expect(page).toContain('name="decision" value="approve"');
    expect(page).toContain('ada@example.com');
  });

  it("the original CLI's approval page posts its port and state back, escaped", async () => {
    const page = String(
      await cliLoginPage({
        user: { id: '1', email: 'ada@example.com', name: 'Ada' },
        port: 49152,
        state: '"><script>x</script>',
      }),
    );
    expect(page).toContain('<form method="post" action="/cli-login">');
    expect(page).toContain('name="port" value="49152"');
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(page).not.toContain('<script>x</script>');
    expect(page).toContain('ada@example.com');
  });
});
