// English irregular verbs: the light stemmer folds walked/walking onto walk, but not drew onto draw or bought
// onto buy. A query word adds the other forms of its verb, so "What did she draw" meets "I drew it".
import { queryTerms } from '../text/tokenize.js';

// Base, past, past participle (where it differs); auxiliaries (be, have, do) are left out: they are stop words.
const VERBS = `arise arose arisen|awake awoke awoken|bear bore born borne|beat beaten|become became|begin began begun|
bend bent|bet|bid|bind bound|bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred|
bring brought|broadcast|build built|burn burnt|burst|buy bought|catch caught|choose chose chosen|cling clung|
come came|cost|creep crept|cut|deal dealt|dig dug|draw drew drawn|dream dreamt|drink drank drunk|
drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|
fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|
go went gone|grind ground|grow grew grown|hang hung|hear heard|hide hid hidden|hit|hold held|hurt|keep kept|
kneel knelt|know knew known|lay laid|lead led|lean leant|leap leapt|learn learnt|leave left|lend lent|let|
lie lay lain|light lit|lose lost|make made|mean meant|meet met|pay paid|prove proven|put|quit|read|ride rode ridden|
ring rang rung|rise rose risen|run ran|say said|see saw seen|seek sought|sell sold|send sent|set|sew sewn|
shake shook shaken|shine shone|shoot shot|show shown|shrink shrank shrunk|shut|sing sang sung|sink sank sunk|
sit sat|sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|spin spun|split|spread|spring sprang sprung|
stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk|strike struck|swear swore sworn|
sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told|think thought|
throw threw thrown|understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won|
wind wound|withdraw withdrew withdrawn|write wrote written`;

let forms: Map<string, string[]> | undefined;

/** Index term → the index terms of the other forms of its verb. */
function verbForms(): Map<string, string[]> {
  if (forms) return forms;
  forms = new Map();
  for (const group of VERBS.split('|')) {
    const terms = [
      ...new Set(
        group
          .trim()
          .split(/\s+/)
          .flatMap((w) => queryTerms(w)),
      ),
    ];
    if (terms.length < 2) continue;
    for (const t of terms) forms.set(t, [...(forms.get(t) ?? []), ...terms.filter((o) => o !== t)]);
  }
  return forms;
}

/** The other forms of the query's irregular verbs, as index terms not already among `terms`. */
export function irregularForms(terms: readonly string[]): string[] {
  const have = new Set(terms);
  const out = new Set<string>();
  for (const t of terms) for (const f of verbForms().get(t) ?? []) if (!have.has(f)) out.add(f);
  return [...out];
}
