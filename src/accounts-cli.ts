/**
 * `gleaner teams ...` and `gleaner credits ...`: the operator's hand on plans, limits and grants.
 * Teams are named by name or id.
 */
import type { AccountsRuntime } from './accounts-runtime.js';
import { UNLIMITED } from './billing/ledger.js';
import { plans } from './billing/plans.js';
import { editPolicy } from './security/threat/policy-args.js';

type Out = (line: string) => void;
type Usage = (message: string) => Error;

async function teamId(rt: AccountsRuntime, nameOrId: string | undefined, usage: Usage): Promise<string> {
  if (!nameOrId) throw usage('name a team');
  const row = await rt.store.db
    .selectFrom('teams')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', nameOrId), eb('name', '=', nameOrId)]))
    .executeTakeFirst();
  if (!row) throw usage(`no team named ${nameOrId}`);
  return row.id;
}

function describe(a: Awaited<ReturnType<AccountsRuntime['ledger']['account']>>): string {
  const limit = a.periodCredits === null ? 'unlimited' : `${a.periodCredits}/period`;
  const balance = a.periodCredits === null ? `used-net ${-a.balance}` : `remaining ${a.balance}`;
  return `plan=${a.plan}  credits=${limit}  ${balance}  period=${a.period.id}`;
}

/** An operator's change to a team, as an audit event when the team keeps a log. */
export async function operatorEvent(rt: AccountsRuntime, teamId: string, action: string, keyId: string | null = null, force = false): Promise<void> {
  await rt.audit.record({ teamId, keyId, username: null, action, targetUrls: [], outcome: 'ok', credits: 0 }, force);
}

export async function auditCommand(rt: AccountsRuntime, args: string[], out: Out, usage: Usage): Promise<void> {
  const [action, target] = args;
  switch (action) {
    case 'enable':
    case 'disable': {
      const id = await teamId(rt, target, usage);
      // Turning the log off is the last event it keeps.
      if (action === 'disable') await operatorEvent(rt, id, 'audit disable', null, true);
      await rt.audit.setEnabled(id, action === 'enable');
      if (action === 'enable') await operatorEvent(rt, id, 'audit enable');
      out(`audit log ${action}d`);
      return;
    }
    case 'list': {
      // One JSON object per line: the export format as well as the listing.
      const id = target ? await teamId(rt, target, usage) : undefined;
      for (const e of await rt.audit.list(id ? { teamId: id } : {})) out(JSON.stringify(e));
      return;
    }
    default:
      throw usage(`unknown audit action: ${action ?? '(none)'}`);
  }
}

export async function teamsCommand(rt: AccountsRuntime, args: string[], out: Out, usage: Usage): Promise<void> {
  const [action, target, value] = args;
  const known = Object.keys(plans(rt.config.rateLimitPerMinute));
  switch (action) {
    case 'list': {
      const teams = await rt.store.db.selectFrom('teams').select(['id', 'name']).orderBy('created_at').execute();
      for (const t of teams) out(`${t.id}  ${t.name}  ${describe(await rt.ledger.account(t.id))}`);
      return;
    }
    case 'create': {
      if (!target) throw usage('teams create needs a name');
      if (value && !known.includes(value)) throw usage(`unknown plan ${value}; known: ${known.join(', ')}`);
      out(await rt.keys.ensureTeam(target, value ?? 'standard'));
      return;
    }
    case 'set-plan': {
      if (!value || !known.includes(value)) throw usage(`teams set-plan needs a plan; known: ${known.join(', ')}`);
      const id = await teamId(rt, target, usage);
      await rt.keys.setPlan(id, value);
      await operatorEvent(rt, id, `teams set-plan ${value}`);
      out(describe(await rt.ledger.account(id)));
      return;
    }
    case 'threat-policy': {
      const id = await teamId(rt, target, usage);
      const edits = args.slice(2);
      const current = (await rt.teamPolicies.settings(id)).threat;
      if (edits.length === 0 || (edits.length === 1 && edits[0] === 'show')) {
        out(JSON.stringify(current));
        return;
      }
      let next;
      try {
        next = editPolicy(current, edits);
      } catch (e) {
        throw usage(`teams threat-policy: ${(e as Error).message}`);
      }
      await rt.teamPolicies.setThreatPolicy(id, next);
      // The event names the change, not the lists' contents.
      await operatorEvent(rt, id, `teams threat-policy ${edits.map((e) => e.split('=')[0]).join(' ')}`);
      out(JSON.stringify(next));
      return;
    }
    case 'zdr': {
      const id = await teamId(rt, target, usage);
      if (value === undefined || value === 'show') {
        out(`zdr ${(await rt.teamPolicies.settings(id)).zdr ? 'on' : 'off'}`);
        return;
      }
      if (value !== 'on' && value !== 'off') throw usage('teams zdr takes on or off');
      await rt.teamPolicies.setZdr(id, value === 'on');
      await operatorEvent(rt, id, `teams zdr ${value}`);
      out(`zdr ${value}`);
      return;
    }
    default:
      throw usage(`unknown teams action: ${action ?? '(none)'}`);
  }
}

export async function creditsCommand(rt: AccountsRuntime, args: string[], out: Out, usage: Usage): Promise<void> {
  const [action, target, value] = args;
  const id = await teamId(rt, target, usage);
  switch (action) {
    case 'show':
      out(describe(await rt.ledger.account(id)));
      return;
    case 'grant': {
      const n = Number(value);
      if (!Number.isInteger(n) || n <= 0) throw usage('credits grant needs a positive whole number');
      await rt.ledger.grant(id, n);
      await operatorEvent(rt, id, `credits grant ${n}`);
      out(describe(await rt.ledger.account(id)));
      return;
    }
    case 'limit': {
      // A number sets the credits per period, `unlimited` lifts the limit, `plan` restores the plan's.
      const n = value === 'unlimited' ? UNLIMITED : value === 'plan' ? null : Number(value);
      if (n !== null && n !== UNLIMITED && (!Number.isInteger(n) || n < 0)) throw usage('credits limit takes a whole number, unlimited or plan');
      await rt.ledger.setPeriodCredits(id, n);
      await operatorEvent(rt, id, `credits limit ${value}`);
      out(describe(await rt.ledger.account(id)));
      return;
    }
    default:
      throw usage(`unknown credits action: ${action ?? '(none)'}`);
  }
}
