import { Privilege } from '../../auth/privileges.js';
import type { Principal } from '../../auth/service.js';
import { type Clock, isoNow } from '../../shared/clock.js';
import { type FieldProblem, notFound, validationFailed } from '../../shared/errors.js';
import { uniqueViolation } from '../../db/errors.js';
import type { ModelRepository } from './repository.js';
import type { ModelCreate, ModelRecord, ModelTargetInput, ModelUpdate } from './schemas.js';

/** Percent totals are compared to 100 with this slack, so 33.333 × 3 + 0.001 passes. */
const TOTAL_SLACK = 0.0011;

/**
 * Models and their teams (section 4.10). A caller sees a model when the model has no teams, the
 * caller belongs to one of them, or the caller is a platform administrator; an invisible model
 * is answered like a missing one.
 */
export class ModelService {
  constructor(
    private readonly repository: ModelRepository,
    private readonly clock: Clock,
  ) {}

  private async visibility(principal: Principal, repository: ModelRepository) {
    if (principal.privileges.has(Privilege.PlatformAdmin)) return () => true;
    const mine = await repository.teamsOfUser(principal.firmId, principal.userId);
    return (teams: number[]) => teams.length === 0 || teams.some((t) => mine.has(t));
  }

  /** Every model the caller may see whose name contains `name`, by name. */
  async list(principal: Principal, filter: { name?: string } = {}): Promise<ModelRecord[]> {
    const ids = await this.visibleIds(principal, filter.name);
    return this.records(principal.firmId, ids);
  }

  /** A page of the models the caller may see, by name, with how many there are. */
  async page(principal: Principal, filter: { name?: string; top: number; skip: number }): Promise<{ items: ModelRecord[]; total: number }> {
    const ids = await this.visibleIds(principal, filter.name);
    return { items: await this.records(principal.firmId, ids.slice(filter.skip, filter.skip + filter.top)), total: ids.length };
  }

  /** The ids of the models the caller may see whose name contains `name` (any case), by name: visibility is decided here, not in SQL, so the total is counted after it. */
  private async visibleIds(principal: Principal, name: string | undefined): Promise<number[]> {
    const text = name?.trim().toLowerCase();
    const all = await this.repository.models(principal.firmId);
    const models = text ? all.filter((m) => m.name.toLowerCase().includes(text)) : all;
    const teams = await this.repository.teamsOf(principal.firmId, models.map((m) => m.id));
    const sees = await this.visibility(principal, this.repository);
    return models.filter((m) => sees(teams.get(m.id) ?? [])).map((m) => m.id);
  }

  private async records(firmId: number, ids: number[]): Promise<ModelRecord[]> {
    const out: ModelRecord[] = [];
    for (const id of ids) out.push(await this.record(firmId, id, this.repository));
    return out;
  }

  async get(principal: Principal, modelId: number, repository = this.repository): Promise<ModelRecord> {
    await this.visible(principal, modelId, repository);
    return this.record(principal.firmId, modelId, repository);
  }

  async teams(principal: Principal, modelId: number) {
    const teamIds = await this.visible(principal, modelId, this.repository);
    return this.repository.teams(principal.firmId, teamIds);
  }

  allTeams(firmId: number) {
    return this.repository.teams(firmId);
  }

  create(principal: Principal, input: ModelCreate): Promise<ModelRecord> {
    return this.write(principal, null, input, input.teamIds ?? []);
  }

  update(principal: Principal, modelId: number, input: ModelUpdate): Promise<ModelRecord> {
    if (input.id !== undefined && input.id !== modelId) throw validationFailed([{ field: 'id', message: `${input.id} does not match the model id ${modelId} in the path` }]);
    return this.write(principal, modelId, input, input.teamIds);
  }

  /** Adds models to a team; models already on it stay, other teams of the models are untouched. */
  attach(principal: Principal, teamId: number, modelIds: number[]) {
    return this.repository.transaction(async (repository) => {
      if ((await repository.teams(principal.firmId, [teamId])).length === 0) throw notFound('team', teamId);
      const unique = [...new Set(modelIds)];
      const teams = await repository.teamsOf(principal.firmId, unique);
      const found = new Set((await repository.models(principal.firmId, unique)).map((m) => m.id));
      const sees = await this.visibility(principal, repository);
      const problems: FieldProblem[] = [];
      modelIds.forEach((id, index) => {
        if (!found.has(id) || !sees(teams.get(id) ?? [])) problems.push({ field: `modelIds[${index}]`, message: `model ${id} does not exist` });
      });
      if (problems.length > 0) throw validationFailed(problems);
      await repository.attach(principal.firmId, teamId, unique);
      return { teamId, modelIds: await repository.modelsOfTeam(principal.firmId, teamId) };
    });
  }

  /**
   * Section 4.10 rule 3: the team's models become exactly `modelIds`. Models left out lose this
   * team (their other teams stay); a model the caller cannot see is neither named nor taken away.
   */
  replaceTeamModels(principal: Principal, teamId: number, modelIds: number[]) {
    return this.repository.transaction(async (repository) => {
      if ((await repository.teams(principal.firmId, [teamId])).length === 0) throw notFound('team', teamId);
      const unique = [...new Set(modelIds)];
      const held = await repository.modelsOfTeam(principal.firmId, teamId);
      const teams = await repository.teamsOf(principal.firmId, [...new Set([...unique, ...held])]);
      const found = new Set((await repository.models(principal.firmId, unique)).map((m) => m.id));
      const sees = await this.visibility(principal, repository);
      const problems: FieldProblem[] = [];
      modelIds.forEach((id, index) => {
        if (!found.has(id) || !sees(teams.get(id) ?? [])) problems.push({ field: `modelIds[${index}]`, message: `model ${id} does not exist` });
      });
      if (problems.length > 0) throw validationFailed(problems);
      const wanted = new Set(unique);
      await repository.detach(principal.firmId, teamId, held.filter((id) => !wanted.has(id) && sees(teams.get(id) ?? [])));
      await repository.attach(principal.firmId, teamId, unique);
      return { teamId, modelIds: await repository.modelsOfTeam(principal.firmId, teamId) };
    });
  }

  /** Throws not_found unless the model exists in the caller's firm and the caller may see it. */
  assertVisible(principal: Principal, modelId: number, repository = this.repository): Promise<number[]> {
    return this.visible(principal, modelId, repository);
  }

  /** The model's team ids, after checking the caller may see it. */
  private async visible(principal: Principal, modelId: number, repository: ModelRepository): Promise<number[]> {
    if (!(await repository.model(principal.firmId, modelId))) throw notFound('model', modelId);
    const teams = (await repository.teamsOf(principal.firmId, [modelId])).get(modelId) ?? [];
    if (!(await this.visibility(principal, repository))(teams)) throw notFound('model', modelId);
    return teams;
  }

  private async record(firmId: number, modelId: number, repository: ModelRepository): Promise<ModelRecord> {
    const model = await repository.model(firmId, modelId);
    if (!model) throw notFound('model', modelId);
    const allocations = await repository.allocations(firmId, modelId);
    const equivalents = await repository.equivalents(firmId, allocations.map((a) => a.id));
    const teams = (await repository.teamsOf(firmId, [modelId])).get(modelId) ?? [];
    return {
      id: model.id,
      name: model.name,
      description: model.description,
      isActive: model.is_active,
      cashTargetPercent: Number(model.cash_target_pct),
      cashLowerTolerance: Number(model.cash_lower_pct),
      cashUpperTolerance: Number(model.cash_upper_pct),
      teamIds: teams,
      targets: allocations.map((a) => ({
        productId: a.product_id,
        ticker: a.ticker,
        targetPercent: Number(a.target_pct),
        lowerTolerance: Number(a.lower_pct),
        upperTolerance: Number(a.upper_pct),
        equivalents: equivalents.filter((e) => e.model_allocation_id === a.id).map((e) => e.product_id),
      })),
      createdOn: model.created_at,
      createdBy: model.created_by,
      editedOn: model.edited_at,
      editedBy: model.edited_by,
    };
  }

  private async write(principal: Principal, modelId: number | null, input: ModelCreate | ModelUpdate, teamIds: number[]): Promise<ModelRecord> {
    const name = input.name.trim();
    try {
      return await this.repository.transaction(async (repository) => {
        const current = modelId === null ? undefined : await repository.model(principal.firmId, modelId, true);
        if (modelId !== null) await this.visible(principal, modelId, repository);
        const problems: FieldProblem[] = [];
        if (name === '') problems.push({ field: 'name', message: 'is required' });
        else if (await repository.nameHolder(principal.firmId, name, modelId)) problems.push({ field: 'name', message: `${name} is already the name of another model` });
        const knownTeams = new Set((await repository.teams(principal.firmId, [...new Set(teamIds)])).map((t) => t.id));
        teamIds.forEach((id, index) => {
          if (!knownTeams.has(id)) problems.push({ field: `teamIds[${index}]`, message: `team ${id} does not exist` });
        });
        if (input.targets) await this.checkTargets(repository, principal.firmId, input.targets, problems);
        // Omitted on update: the stored allocation and cash target count toward the 100%.
        const cash = input.cashTargetPercent ?? (current ? Number(current.cash_target_pct) : 0);
        const targetTotal = input.targets
          ? input.targets.reduce((sum, t) => sum + t.targetPercent, 0)
          : modelId === null
            ? 0
            : (await repository.allocations(principal.firmId, modelId)).reduce((sum, a) => sum + Number(a.target_pct), 0);
        if (Math.abs(targetTotal + cash - 100) > TOTAL_SLACK) {
          problems.push({ field: 'targets', message: `targets (${round(targetTotal)}%) and cashTargetPercent (${round(cash)}%) total ${round(targetTotal + cash)}%, not 100%` });
        }
        if (problems.length > 0) throw validationFailed(problems);

        const now = isoNow(this.clock);
        const columns = {
          name,
          ...(input.description !== undefined ? { description: input.description?.trim() || null } : {}),
          ...(input.isActive !== undefined ? { is_active: input.isActive === true || input.isActive === 1 ? (1 as const) : (0 as const) } : {}),
          ...(input.cashTargetPercent !== undefined ? { cash_target_pct: input.cashTargetPercent } : {}),
          ...(input.cashLowerTolerance !== undefined ? { cash_lower_pct: input.cashLowerTolerance } : {}),
          ...(input.cashUpperTolerance !== undefined ? { cash_upper_pct: input.cashUpperTolerance } : {}),
          edited_at: now,
          edited_by: principal.userName,
        };
        const id =
          modelId ??
          (await repository.insertModel({ firm_id: principal.firmId, description: null, is_active: 1, cash_target_pct: 0, cash_lower_pct: 0, cash_upper_pct: 0, ...columns, created_at: now, created_by: principal.userName }));
        if (modelId !== null) await repository.updateModel(principal.firmId, modelId, columns);
        if (input.targets) {
          await repository.replaceTargets(
            principal.firmId,
            id,
            input.targets.map((t) => ({ productId: t.productId, target: t.targetPercent, lower: t.lowerTolerance ?? 0, upper: t.upperTolerance ?? 0, equivalents: t.equivalents ?? [] })),
          );
        }
        await repository.replaceTeams(principal.firmId, id, [...new Set(teamIds)]);
        return this.record(principal.firmId, id, repository);
      });
    } catch (error) {
      if (uniqueViolation(error) === null) throw error;
      throw validationFailed([{ field: 'name', message: `${name} is already the name of another model` }]);
    }
  }

  private async checkTargets(repository: ModelRepository, firmId: number, targets: ModelTargetInput[], problems: FieldProblem[]) {
    const all = targets.flatMap((t) => [t.productId, ...(t.equivalents ?? [])]);
    const known = await repository.existingProducts(firmId, [...new Set(all)]);
    const primaries = new Set<number>();
    const taken = new Set<number>();
    targets.forEach((t, i) => {
      if (!known.has(t.productId)) problems.push({ field: `targets[${i}].productId`, message: `product ${t.productId} does not exist` });
      else if (primaries.has(t.productId)) problems.push({ field: `targets[${i}].productId`, message: `product ${t.productId} is targeted twice` });
      primaries.add(t.productId);
    });
    targets.forEach((t, i) => {
      (t.equivalents ?? []).forEach((e, j) => {
        const field = `targets[${i}].equivalents[${j}]`;
        if (!known.has(e)) problems.push({ field, message: `product ${e} does not exist` });
        else if (primaries.has(e)) problems.push({ field, message: `product ${e} is a target of the model itself` });
        else if (taken.has(e)) problems.push({ field, message: `product ${e} is already an equivalent in this model` });
        taken.add(e);
      });
    });
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;
