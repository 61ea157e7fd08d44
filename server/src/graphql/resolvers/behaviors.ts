import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { ZodError } from 'zod';
import { VigilError } from '../../errors.js';
import type { GraphqlContext } from '../context.js';
import { Behavior, BehaviorInput } from '../types/behavior.js';
import { behaviorValidationError, configOf, toBehavior } from './behavior-mapping.js';

/**
 * Behaviors (velocity counters): readable by every supervisor role, defined and removed by admins. The config
 * file stays the owner of its behaviors: each start re-applies it, so changing them here would not last.
 */
@Resolver()
export class BehaviorResolver {
  @Query(() => [Behavior], { description: 'Enabled behaviors, from the config file and from admins, by name.' })
  async behaviors(@Ctx() ctx: GraphqlContext): Promise<Behavior[]> {
    ctx.require('read');
    return (await ctx.services.behaviorDefinitions.list()).map(toBehavior);
  }

  @Mutation(() => Behavior, {
    description:
      'Define or redefine a behavior (admin). A new or changed one is backfilled from stored events (status BACKFILLING), then READY. ' +
      'Validated as the config file; config-file behaviors are a conflict.',
  })
  async defineBehavior(@Ctx() ctx: GraphqlContext, @Arg('input', () => BehaviorInput) input: BehaviorInput): Promise<Behavior> {
    ctx.require('admin');
    const service = ctx.services.behaviorDefinitions;
    const config = configOf(input);
    await this.refuseConfigOwned(ctx, input.name, 'redefined');
    try {
      return toBehavior(await service.define(config));
    } catch (error) {
      if (error instanceof ZodError) throw behaviorValidationError(error);
      throw error;
    }
  }

  @Mutation(() => Boolean, {
    description:
      'Remove an admin-defined behavior (admin); its data is deleted in the background. False when there is none. Config-file behaviors are a conflict.',
  })
  async removeBehavior(@Ctx() ctx: GraphqlContext, @Arg('name', () => String) name: string): Promise<boolean> {
    ctx.require('admin');
    await this.refuseConfigOwned(ctx, name, 'removed');
    return ctx.services.behaviorDefinitions.remove(name);
  }

  private async refuseConfigOwned(ctx: GraphqlContext, name: string, what: string): Promise<void> {
    const current = (await ctx.services.behaviorDefinitions.list()).find((b) => b.name === name);
    if (current?.source === 'config') {
      throw new VigilError('conflict', `Behavior ${name} is defined in the VIGIL_CONFIG file and cannot be ${what} through GraphQL; change the file`);
    }
  }
}
