import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { supervisorActor } from '../../auth/account-audit.js';
import { VigilError } from '../../errors.js';
import { IdentityRequests } from '../../identity/requests.js';
import { dataRequestsFor, subjectHasher } from '../../identity/audit.js';
import type { GraphqlContext } from '../context.js';
import { DataRequest, IdentityErasure, IdentityExport } from '../types/identity.js';

/** An export answered in one GraphQL response is held in memory whole; larger ones stream from the CLI. */
export const GRAPHQL_EXPORT_MAX_EVENTS = 10_000;

/** Data-protection requests (admin only, each logged under a keyed hash of the identity). */
@Resolver()
export class IdentityResolver {
  @Mutation(() => IdentityExport, { description: 'Export everything held about an identity as JSON (admin; logged).' })
  async exportIdentity(@Ctx() ctx: GraphqlContext, @Arg('identity', () => String) identity: string): Promise<IdentityExport> {
    ctx.require('admin');
    const requests = new IdentityRequests(ctx.services.database);
    if ((await requests.eventCount(identity, GRAPHQL_EXPORT_MAX_EVENTS)) > GRAPHQL_EXPORT_MAX_EVENTS) {
      throw new VigilError(
        'query_too_expensive',
        `The identity has more than ${GRAPHQL_EXPORT_MAX_EVENTS} events: export it with \`vigil identity export\` on the server, which streams.`,
      );
    }
    const chunks: string[] = [];
    const summary = await requests.export(supervisorActor(ctx.principal.supervisor), identity, (chunk) => void chunks.push(chunk));
    return { requestId: summary.requestId, events: summary.events, record: JSON.parse(chunks.join('')) };
  }

  @Mutation(() => IdentityErasure, {
    description:
      'Erase an identity: its events, registry history and counters keep their place under a pseudonym, its e-mail and phone sightings are deleted (admin; logged).',
  })
  async eraseIdentity(@Ctx() ctx: GraphqlContext, @Arg('identity', () => String) identity: string): Promise<IdentityErasure> {
    ctx.require('admin');
    const report = await new IdentityRequests(ctx.services.database).erase(supervisorActor(ctx.principal.supervisor), identity);
    return { requestId: report.requestId, pseudonym: report.pseudonym, found: report.found, changed: report.changed };
  }

  @Query(() => [DataRequest], { description: 'The exports and erasures carried out for an identity, newest first, found by its keyed hash (admin).' })
  async identityRequests(@Ctx() ctx: GraphqlContext, @Arg('identity', () => String) identity: string): Promise<DataRequest[]> {
    ctx.require('admin');
    const hash = (await subjectHasher(ctx.services.database))(identity);
    const found = await dataRequestsFor(ctx.services.database.db, hash);
    return found.map((r) => ({ id: r.id, at: r.at, action: r.action, actorKind: r.actorKind, actorName: r.actorName, detail: r.detail ?? null }));
  }
}
