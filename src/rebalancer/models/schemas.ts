import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { Skip, Top } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';

const Percent = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });
const Ids = (description: string) => Type.Array(IdSchema(), { maxItems: 1000, description });

export const ModelTargetInput = Type.Object({
  productId: IdSchema(),
  targetPercent: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
  lowerTolerance: Type.Optional(Percent('Percentage points below the target before it is out of tolerance; default 0')),
  upperTolerance: Type.Optional(Percent('Percentage points above the target; default 0')),
  equivalents: Type.Optional(Ids('Ordered alternates; holding one counts toward this target')),
});

const ModelFields = {
  name: Type.String({ maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  // Section 4.10 rule 2: a model is updated by sending back what GET returned, which reads 0/1.
  isActive: Type.Optional(Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 1 })], { description: 'true/false, or 0/1 as reads give it' })),
  cashTargetPercent: Type.Optional(Percent('Default 0 on create')),
  cashLowerTolerance: Type.Optional(Percent('Default 0 on create')),
  cashUpperTolerance: Type.Optional(Percent('Cash above target + this is invested; default 0 on create')),
  targets: Type.Optional(Type.Array(ModelTargetInput, { maxItems: 2000, description: 'The whole allocation; with the cash target it totals 100%' })),
};

export const ModelCreate = Type.Object({
  id: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 0 }))),
  ...ModelFields,
  teamIds: Type.Optional(Ids('Teams that may see the model; none: every user of the firm')),
});

export const ModelUpdate = Type.Object({
  id: Type.Optional(IdSchema()),
  ...ModelFields,
  teamIds: Ids('The complete set of teams; teams left out lose access'),
});

export const ModelTargetRecord = Type.Object({
  productId: Type.Integer(),
  ticker: Type.String(),
  targetPercent: Type.Number(),
  lowerTolerance: Type.Number(),
  upperTolerance: Type.Number(),
  equivalents: Type.Array(Type.Integer()),
});

export const ModelRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  isActive: Type.Integer({ minimum: 0, maximum: 1 }),
  cashTargetPercent: Type.Number(),
  cashLowerTolerance: Type.Number(),
  cashUpperTolerance: Type.Number(),
  teamIds: Type.Array(Type.Integer()),
  targets: Type.Array(ModelTargetRecord),
  createdOn: Type.String(),
  createdBy: Type.String(),
  editedOn: Type.String(),
  editedBy: Type.String(),
});

export const ModelsQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Models whose name contains the text (case-insensitive)' })),
  $top: Top(100_000, 1000),
  $skip: Skip(),
});
export const TeamItem = Type.Object({ id: Type.Integer(), name: Type.String() });
export const ModelParams = Type.Object({ modelId: IdSchema() });
export const TeamParams = Type.Object({ teamId: IdSchema() });
export const TeamsQuery = Type.Object({ isEditModel: Type.Optional(Type.Boolean()) });
export const AttachBody = Type.Object({ modelIds: Type.Array(IdSchema(), { minItems: 1, maxItems: 1000 }) });
export const ReplaceTeamModelsBody = Type.Object({ modelIds: Type.Array(IdSchema(), { maxItems: 1000, description: 'The team\'s complete model list; [] takes every model you can see off the team' }) });
export const TeamModels = Type.Object({ teamId: Type.Integer(), modelIds: Type.Array(Type.Integer()) });

export type ModelTargetInput = Static<typeof ModelTargetInput>;
export type ModelCreate = Static<typeof ModelCreate>;
export type ModelUpdate = Static<typeof ModelUpdate>;
export type ModelRecord = Static<typeof ModelRecord>;
