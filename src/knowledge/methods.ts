// The memory.chain.* methods' handlers: objects, aliases and relations.
import type { Handlers } from '../protocol/catalog.js';
import { browseObjects } from './chain-browse.js';
import { findObjects } from './chain-find.js';
import { readNode } from './chain-node.js';
import { readChain } from './chain-read.js';
import { upsertChain, type ChainDeps } from './chain-upsert.js';
import { decideProject } from './project-decision.js';

type ChainMethod =
  | 'memory.chain.upsert'
  | 'memory.chain.find'
  | 'memory.chain.read'
  | 'memory.chain.node'
  | 'memory.chain.browse'
  | 'memory.chain.project_decision';

export function chainHandlers(deps: ChainDeps): Handlers<ChainMethod> {
  const db = deps.driver;
  return {
    'memory.chain.upsert': (p) => upsertChain(deps, p),
    'memory.chain.find': (p) => findObjects(db, p),
    'memory.chain.read': (p) => readChain(db, p),
    'memory.chain.node': (p) => readNode(db, p),
    'memory.chain.browse': (p) => browseObjects(db, p),
    'memory.chain.project_decision': (p) => decideProject(db, p, deps.now()),
  };
}
