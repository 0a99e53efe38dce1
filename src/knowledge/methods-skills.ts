// Handlers of the memory.skill.* methods: procedures as checklists, their approval and who follows them.
import type { Handlers } from '../protocol/catalog.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { followSkill, setSkillStatus } from './skill-status.js';
import { getSkill, listSkills } from './skills.js';

type SkillMethod =
  'memory.skill.list' | 'memory.skill.get' | 'memory.skill.set_status' | 'memory.skill.follow';

export function skillHandlers(deps: {
  driver: Driver;
  redactor: Redactor;
  now(): number;
}): Handlers<SkillMethod> {
  return {
    'memory.skill.list': (p) => listSkills(deps.driver, p),
    'memory.skill.get': (p) => getSkill(deps.driver, p.owner, p.id),
    'memory.skill.set_status': (p) => setSkillStatus(deps, p, deps.now()),
    'memory.skill.follow': (p) => followSkill(deps.driver, p, deps.now()),
  };
}
