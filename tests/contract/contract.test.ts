// The contract suite: every named check of contract-suite/registry.ts, one describe per
// operation. Runs against our server in-process, or unchanged against any
// deployment: CONTRACT_BASE_URL=… CONTRACT_API_KEY=… (or npm run contract -- --base-url … --api-key …).
import { CheckContext, contractChecks, type OperationName } from '../../contract-suite/registry';
import { openTarget, type OpenTarget } from './local-target';

let opened: OpenTarget;
let context: CheckContext;
beforeAll(async () => {
  opened = await openTarget();
  context = new CheckContext(opened.target);
  console.log(`contract suite against ${opened.description}`);
});
afterAll(() => opened.close());

const DESCRIBES: [OperationName, string][] = [
  ['ping', 'GET /api/v1/Diagnostics/Ping (ping)'],
  ['exception', 'GET /api/v1/Diagnostics/Exception (exception)'],
  ['getClientsSimple', 'GET /api/v1/Client/Simple (getClientsSimple)'],
  ['getClientsExtended', 'GET /api/v1/Client/Extended (getClientsExtended)'],
  ['getClientDetail', 'GET /api/v1/Client/Detail/{idClient} (getClientDetail)'],
  ['routing', 'paths that are no operation'],
  ['cross-cutting', 'rules of every operation (CORS, X-Request-Id, keys)'],
  ['coverage', 'coverage of the documented statuses'],
];

for (const [operation, title] of DESCRIBES) {
  describe(title, () => {
    for (const check of contractChecks().filter((candidate) => candidate.operation === operation)) {
      test(check.name, () => check.run(context));
    }
  });
}
