// Handlers of the maestro surface: tracks, todos and suggestions.
import type { Handlers } from '../protocol/catalog.js';
import { decideSuggestion, listSuggestions, suggest } from './suggestions.js';
import { addTodo, listTodos, updateTodo, viewTodos } from './todos.js';
import { archiveTrack } from './track-archive.js';
import { addTrackEntry, type TrackDeps } from './tracks.js';
import { expandEntry, listTrack } from './tracks-read.js';

type TrackMethod =
  | 'memory.track.add'
  | 'memory.track.list'
  | 'memory.track.expand'
  | 'memory.track.archive'
  | 'memory.todo.add'
  | 'memory.todo.update'
  | 'memory.todo.list'
  | 'memory.todo.view'
  | 'memory.suggest'
  | 'memory.suggestions.list'
  | 'memory.suggestions.decide';

export function trackHandlers(deps: TrackDeps): Handlers<TrackMethod> {
  const db = deps.driver;
  return {
    'memory.track.add': (p) => addTrackEntry(deps, p),
    'memory.track.list': (p) => listTrack(db, p),
    'memory.track.expand': (p) => expandEntry(db, p.owner, p.id),
    'memory.track.archive': (p) => archiveTrack(db, p, deps.now()),
    'memory.todo.add': (p) => addTodo(deps, p),
    'memory.todo.update': (p) => updateTodo(deps, p),
    'memory.todo.list': async (p) => ({ items: await listTodos(db, p, deps.now(), deps.timeZone) }),
    'memory.todo.view': (p) => viewTodos(db, p.owner, deps.now(), deps.timeZone),
    'memory.suggest': (p) => suggest(deps, p),
    'memory.suggestions.list': (p) => listSuggestions(db, p),
    'memory.suggestions.decide': (p) => decideSuggestion(deps, p),
  };
}
