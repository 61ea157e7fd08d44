import type { CodegenConfig } from '@graphql-codegen/cli';
import { consoleSchema } from './codegen/schema';

/**
 * `pnpm --filter @vigil/console codegen`: TypeScript types of every operation in lib/server/vigil/documents.ts,
 * from server/schema.graphql. documents.test.ts fails when generated.ts is not current.
 */
export const codegenConfig: CodegenConfig = {
  overwrite: true,
  schema: consoleSchema().sdl,
  documents: ['lib/server/vigil/documents.ts'],
  generates: {
    'lib/server/vigil/generated.ts': {
      plugins: ['typescript-operations'],
      config: {
        scalars: { DateTimeISO: 'string', JSON: 'unknown', JSONObject: 'Record<string, unknown>' },
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        skipTypename: true,
        useTypeImports: true,
      },
    },
  },
};

export default codegenConfig;
