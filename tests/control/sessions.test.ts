// Sessions (server/control/sessions.ts): each session's own scenario or the
// server's, the headers that carry the choice to any process, and the bound.
import { bundledSpec } from '../../contract/spec';
import { inBody, ScenarioTable } from '../../server/control/scenarios';
import { Sessions } from '../../server/control/sessions';

const PROCESS = { host: 'h', pid: 7 };
const table = new ScenarioTable(bundledSpec().document, 1);
const down = table.choose({ scenario: 'down' }, inBody);
const empty = table.choose({ scenario: 'empty' }, inBody);

describe('Sessions', () => {
  test('a session never seen → follows the server scenario, sends only its name', () => {
    const sessions = new Sessions(table.normal, PROCESS);
    sessions.setServer(down, 1000);

    expect(sessions.state('new')).toMatchObject({
      session: 'new',
      scenario: { scenario: 'down' },
      own: false,
      requests: 0,
      sendHeaders: { 'X-Mock-Session': 'new' },
    });
    expect(sessions.ownChoice('new')).toBeUndefined();
  });

  test('a session switched → its own scenario and the X-Mock-Scenario header that carries it; another session unaffected', () => {
    const sessions = new Sessions(table.normal, PROCESS);

    sessions.setSession('a', empty, 1000);

    expect(sessions.state('a')).toMatchObject({
      own: true,
      scenario: { scenario: 'empty' },
      sendHeaders: { 'X-Mock-Session': 'a', 'X-Mock-Scenario': 'empty' },
    });
    expect(sessions.state('b').scenario.scenario).toBe('normal');
  });

  test('requests → counted per session and for the server, lastSeen the latest arrival', () => {
    const sessions = new Sessions(table.normal, PROCESS);

    sessions.touch('a', Date.parse('2026-01-01T00:00:00Z'));
    sessions.touch('a', Date.parse('2026-01-01T00:00:05Z'));
    sessions.touch(undefined, Date.parse('2026-01-01T00:00:09Z'));

    expect(sessions.state('a')).toMatchObject({ requests: 2, lastSeen: '2026-01-01T00:00:05.000Z' });
    expect(sessions.state()).toMatchObject({ session: null, requests: 3, lastSeen: '2026-01-01T00:00:09.000Z' });
  });

  test('capacity 3 → the least recently used session is forgotten first', () => {
    const sessions = new Sessions(table.normal, PROCESS, 3);
    sessions.setSession('a', down, 1);
    sessions.touch('b', 2);
    sessions.touch('c', 3);
    sessions.touch('a', 4);

    sessions.touch('d', 5);

    expect(sessions.list(10).sessions.map((state) => state.session)).toEqual(['d', 'a', 'c']);
    expect(sessions.ownChoice('a')).toBe(down);
  });

  test('reset one → it follows the server again; reset all → none known', () => {
    const sessions = new Sessions(table.normal, PROCESS);
    sessions.setSession('a', down, 1);
    sessions.setSession('b', down, 1);

    sessions.reset('a');
    const afterOne = [sessions.ownChoice('a'), sessions.ownChoice('b')];
    sessions.resetAll();

    expect(afterOne).toEqual([undefined, down]);
    expect(sessions.size).toBe(0);
  });
});
