import { z } from 'zod';
import { checkedByHandler, json, problemBodySchema, problems, securedBy } from '../http/route-schemas.js';

/** POST /graphql in /openapi.json. Apollo reads the body; the schema only documents it. */
export const graphqlRouteSchema = {
  operationId: 'graphql',
  summary: 'GraphQL (schema: server/schema.graphql); errors carry extensions.code from the problem catalog',
  security: securedBy('supervisorToken'),
  body: checkedByHandler(
    z
      .looseObject({ query: z.string(), variables: z.record(z.string(), z.unknown()).nullish(), operationName: z.string().nullish() })
      .meta({ examples: [{ query: '{ __typename }' }] }),
  ),
  response: {
    200: json('GraphQL response {data, errors}', z.looseObject({})),
    400: {
      description: 'An invalid, too deep or too costly operation ({errors}, as GraphQL answers), or a body that is not JSON (a problem).',
      content: { 'application/json': { schema: z.looseObject({}) }, 'application/problem+json': { schema: problemBodySchema } },
    },
    ...problems([401, 403, 413, 415, 429, 503]),
  },
};
