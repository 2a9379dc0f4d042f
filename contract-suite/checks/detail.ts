// Checks of Detail: agreement with the lists, 404 for an unknown id, Prefer.
// Checks that need a listed client skip on an empty deployment; those that
// need none run anyway. The id in upper case is a relation (relations/); what
// idClient accepts and rejects, the key and the methods are derived from
// openapi.yaml (derived/).
import { isDeepStrictEqual } from 'node:util';
import type { ClientDetail } from '../../contract/wire-types';
import { expectPreferred, operationPaths, UNKNOWN_ID, type Define } from '../kit/context';
import type { SpecContract } from '../../contract/spec-contract';

export function detailChecks(check: Define, contract: SpecContract): void {
  const PATHS = operationPaths(contract);
  // ---------------------------------------------------------------- Detail

  const detail = (id: string) => `${PATHS.getClientDetail}/${id}`;

  check(
    'getClientDetail',
    'GET /Client/Detail/{idClient} → 200, agreeing with Extended and Simple for the same client',
    async (context) => {
      const { clients } = await context.sample();
      if (clients.length === 0) context.skip('the deployment lists no clients: no Detail to compare with a list row');
      const picks = new Set([clients[0]!, clients[Math.floor(clients.length / 2)]!, clients[clients.length - 1]!]);
      for (const kind of ['IdStaff', 'IdLocation'] as const) {
        const withNull = clients.find((c) => c[kind] === null);
        if (withNull) picks.add(withNull);
      }
      for (const listed of picks) {
        const exchange = await context.get(detail(listed.IdClient));

        context.expectStatus(exchange, 200);
        const client = exchange.json as ClientDetail;
        // JSON objects are unordered (RFC 8259): compare values, not serializations.
        const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);
        const expect = (ok: boolean, what: string) =>
          context.expect(ok, exchange, `Detail disagrees with Extended on ${what} for ${listed.IdClient}`, 'detail.agrees-with-list');
        expect(client.IdClient === listed.IdClient, 'IdClient');
        expect(same(client.PersonalInfo, listed.PersonalInfo), 'PersonalInfo');
        expect(same(client.ContactInfo, listed.ContactInfo), 'ContactInfo');
        expect(client.Status === listed.Status, 'Status');
        expect((client.Staff?.IdStaff ?? null) === listed.IdStaff && (client.Staff?.FullName ?? null) === listed.StaffName, 'Staff');
        expect(
          (client.Location?.IdLocation ?? null) === listed.IdLocation && (client.Location?.Name ?? null) === listed.LocationName,
          'Location',
        );
        expect(
          client.PersonalInfo.FullName === listed.FullName && client.PersonalInfo.PersonalId === listed.PersonalId,
          'FullName/PersonalId',
        );
        expect(client.ContactInfo.Email === listed.Email && client.ContactInfo.Phone === listed.Phone, 'Email/Phone');
      }
    },
    ['detail.agrees-with-list', 'detail.id'],
  );
  check(
    'getClientDetail',
    'GET /Client/Detail/{idClient} → 404 CLIENT_NOT_FOUND naming the id when no client has it',
    async (context) => {
      const { clients, total } = await context.sample();
      if (clients.length === total && clients.some((c) => c.IdClient === UNKNOWN_ID))
        context.skip(`the deployment has a client ${UNKNOWN_ID}, the id this check takes as unknown`);

      const exchange = await context.get(detail(UNKNOWN_ID));

      const body = context.expectError(exchange, 404, 'CLIENT_NOT_FOUND');
      context.expect(body.Message.includes(UNKNOWN_ID), exchange, 'the Message does not name the id', 'error.message');
    },
    ['check.detail-not-found', 'error.message'],
  );
  check(
    'getClientDetail',
    'GET /Client/Detail/{idClient} with Prefer: code=404 → 404 CLIENT_NOT_FOUND for a known id',
    async (context) => {
      const client = await context.someClient('no known id to ask a simulated 404 for');
      await expectPreferred(context, 'getClientDetail', detail(client.IdClient), 404, 'CLIENT_NOT_FOUND');
    },
    ['check.prefer'],
  );
  check(
    'getClientDetail',
    'GET /Client/Detail/{idClient} with Prefer: code=500 → 500 INTERNAL_ERROR',
    async (context) => {
      const { clients } = await context.sample();
      await expectPreferred(context, 'getClientDetail', detail(clients[0]?.IdClient ?? UNKNOWN_ID), 500, 'INTERNAL_ERROR');
    },
    ['check.prefer'],
  );
}
