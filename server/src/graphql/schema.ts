import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountsResolver } from './resolvers/accounts.js';
import { AdminResolver } from './resolvers/admin.js';
import { BehaviorResolver } from './resolvers/behaviors.js';
import { DeviceConnectionResolver, DeviceResolver } from './resolvers/devices.js';
import { EventResolver } from './resolvers/events.js';
import { IdentityResolver } from './resolvers/identity.js';
import { LiveResolver } from './resolvers/live.js';
import { ReportingResolver } from './resolvers/reporting.js';
import { WebhooksResolver } from './resolvers/webhooks.js';

let built: Promise<GraphQLSchema> | undefined;

/** The schema, built once per process from the type-graphql classes (the classes are the single source). */
export function vigilSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: [
      DeviceResolver,
      DeviceConnectionResolver,
      EventResolver,
      ReportingResolver,
      AdminResolver,
      AccountsResolver,
      BehaviorResolver,
      LiveResolver,
      WebhooksResolver,
      IdentityResolver,
    ],
    // type-graphql wants a PubSub whenever there are subscriptions; eventAdded subscribes to the live feed itself.
    pubSub: {
      publish: () => {},
      subscribe: () => {
        throw new Error('subscriptions read the live feed (live/event-feed.ts), not topics');
      },
    },
    // Arguments are validated in resolvers with the same rules (and error codes) as REST.
    validate: false,
  });
  return built;
}

/** The SDL as checked in at server/schema.graphql: sorted, so diffs show real changes only. */
export async function printVigilSchema(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await vigilSchema()))}\n`;
}
