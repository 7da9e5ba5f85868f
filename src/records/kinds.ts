// Every record the action keeps on GitHub, in one table: what it says, where it lives, who writes
// it and what reads it, and the parts of its key. The key is built and parsed here and in the
// rooms of records/ that ask named questions of it (recordKey, parseRecord), never outside records/
// (__tests__/layers.test.ts keeps it so): `kind/part/part/…`, each part percent-encoded so that a '/'
// inside an id stays unambiguous. A record is a signed marker line at the end of a comment
// (signature.ts), and it counts only in a comment whose author is the login that signed it
// (thread.ts). Adding a kind is adding one entry below.

interface KindSpec {
  /** The parts of the key after the kind's name, in order. */
  parts: readonly string[]
  /**
   * How many of the last parts were added after records of the kind were written: a key that
   * lacks them still parses, with them empty.
   */
  added?: number
  says: string
  lives: string
  writer: string
  readers: string
}

export const RECORD_KINDS = {
  route: {
    parts: ['project', 'job'],
    says: 'A trigger comment here with no `job-id` goes to this job.',
    lives:
      "The live answer of a run that routes here, or the record on the job's pull request (this repository).",
    writer: 'A job run, when its job completes (records/job.ts routeKey, writePullRequestRecord).',
    readers: 'records/job.ts routedJob: which job a reply goes to; whether the hint was said.'
  },
  job: {
    parts: ['project', 'job'],
    says: 'The live comment of a run no trigger asked for (a merge, a dispatch) reports this job.',
    lives: 'The pull request or issue that run comments on.',
    writer: 'A job run without a trigger comment (records/job.ts liveCommentKey).',
    readers:
      'records/job.ts jobStartedHere (a reply there is pointed at the pull request the job opened), and upsert (one comment per job).'
  },
  answer: {
    parts: ['project', 'trigger'],
    says: 'This comment answers that trigger comment (`<id>`, or `review-<id>`).',
    lives: 'The pull request or issue of the trigger comment.',
    writer: 'A job run answering a trigger (records/job.ts liveCommentKey).',
    readers: 'upsert: a re-run edits its own answer, never another instruction’s.'
  },
  opened: {
    parts: ['project', 'job'],
    says: "This job opened this pull request (GitHub shows it created after the job): its merge is the agent's own and starts no job.",
    lives: "The job's pull request, in this repository.",
    writer:
      'A job run that sees the pull request (commands/job-records.ts decides, rule: openedByJob; records/job.ts writePullRequestRecord).',
    readers:
      'records/job.ts openedBy, the one rule: gate/own-merge.ts (a merge of it starts no job), commands/job-grow.ts (the open one to grow), grewFrom.'
  },
  run: {
    parts: ['project', 'run', 'workflowJob', 'step', 'leg', 'instruction', 'jobIdGiven', 'job'],
    says: 'This step of this workflow run delivered its instruction to `job` (empty: dropped, the job failed and a re-run retries).',
    lives: "The run's live comment (kept by the other steps that edit it).",
    writer: 'A job run once the service has the instruction (records/job.ts liveCommentRecords).',
    readers: 'records/delivery.ts deliveredTo: a re-run (GITHUB_RUN_ATTEMPT > 1) follows that job.'
  },
  cause: {
    parts: ['project', 'cause', 'instruction', 'run', 'job'],
    says: 'The instruction (its hash) for this cause (`merge-<sha>`, `comment-<id>`, `review-<id>`) was sent to `job` by workflow run `run` (empty job: dropped, the job failed).',
    lives:
      "The run's live comment (the trigger's thread, the merged pull request) and the code pull request's `notify` comment.",
    writer:
      'A job run once the service has the instruction (records/job.ts liveCommentRecords, commands/job-notify.ts), by the one rule of records/delivery.ts causeRecords.',
    readers:
      'records/delivery.ts sentFor: gate/sent-already.ts, a second run for the same cause sends nothing.'
  },
  report: {
    parts: ['project', 'from', 'to'],
    says: 'This comment is the report of that range.',
    lives: 'The issue or pull request the report is posted on.',
    writer: 'commands/report.ts.',
    readers: 'records/report.ts: upsert, "the newest report" (by range), fix N.'
  },
  suggestion: {
    parts: ['project', 'from', 'to', 'n', 'id', 'subject', 'instruction'],
    says: "Suggestion n of that range's report, and the instruction `fix n` sends.",
    lives: "The report's comment.",
    writer: 'commands/report.ts (report-memory.ts recordKeys).',
    readers: 'records/fix.ts (`/docs-agent fix N`), the next report (what became of it).'
  },
  totals: {
    parts: ['project', 'from', 'to', 'fields'],
    says: "A period's totals, read whole (records/report.ts encodeTotals).",
    lives: "A report's comment.",
    writer: 'commands/report.ts (report-memory.ts recordKeys).',
    readers: 'A later report in the same thread: compare and trend totals it need not read.'
  },
  measure: {
    parts: ['project', 'from', 'to', 'id', 'numbers'],
    says: "A subject's numbers in that period: `40 of 2000` (its count and what it counts among), or `below 10` (not among the rows read) (records/report.ts encodeNumbers).",
    lives: "A report's comment.",
    writer:
      'commands/report.ts, for each subject it suggests or measures (report-memory.ts recordKeys).',
    readers: 'A later report in the same thread: what the fix did (analytics/fix-effect.ts).'
  },
  fix: {
    parts: ['project', 'id', 'pr'],
    says: 'A `fix N` job was started for suggestion `id`; `pr` is the pull request it named.',
    lives: "The answer to the `fix N` trigger, on the report's issue.",
    writer: 'A job run started by `fix N` (records/job.ts liveCommentRecords).',
    readers: 'The next report (report-memory.ts fixStates).'
  },
  instruction: {
    parts: ['project', 'job', 'n', 'text'],
    says: "Instruction n that this job's pull request grew from (clipped: for reading, never sent again).",
    lives: "The comment with the `opened` record, on the job's pull request.",
    writer:
      'The run that created the job, and each run that grew it (records/job.ts writePullRequestRecord).',
    readers: 'records/job.ts grewFrom: the record lists every instruction the pull request holds.'
  },
  asked: {
    parts: ['project', 'job', 'n', 'who', 'where', 'when', 'how', 'title', 'label', 'unlinked'],
    added: 4,
    says: 'Who asked for instruction n of this job (a login, or empty), where (a URL) and when (ISO, UTC), and its cause: how (the asker’s `how`), the title of the pull request it names, the label, and a pull request a dispatch named that is not linked (`owner/repo#N`); each may be empty.',
    lives: 'Beside instruction n, in the comment with the `opened` record.',
    writer: 'As `instruction` (records/job.ts writePullRequestRecord).',
    readers: 'records/job.ts grewFrom: the record says who asked each instruction, where and when.'
  },
  grew: {
    parts: ['project', 'job', 'n'],
    says: 'This comment tells the pull request that instruction n grew it (an edit notifies nobody).',
    lives: "The job's pull request, a new comment per growth.",
    writer: 'A run that grew the pull request (records/job.ts writeGrowthNote).',
    readers: 'upsert: a re-run of the same growth edits its note, never posts a second.'
  },
  explained: {
    parts: ['project', 'pr'],
    says: 'This comment explained why pull request `pr` grew (the 📎 paragraph): an instruction that would have started a job went to its job.',
    lives:
      'The live answer of a run that grew the pull request, or the record on that pull request (this repository).',
    writer:
      'A job run whose comment carried the explanation (commands/job-comments.ts; records/job.ts growthExplainedKey).',
    readers:
      'records/job.ts growthExplained: a later growth answered in the same thread leaves the paragraph out (the summary keeps it).'
  },
  notify: {
    parts: ['project', 'repository'],
    says: 'This comment tells the code pull request what the docs job of `repository` did for it.',
    lives: 'The code pull request (`notify-pr`, or the dispatch payload’s), in another repository.',
    writer: 'A job run with `notify-token` (commands/job-notify.ts; records/job.ts notifyKey).',
    readers: 'upsert: one comment per docs repository, edited as the job goes on and on re-runs.'
  },
  refused: {
    parts: ['project', 'from', 'to'],
    says: 'The report of that range was not read, for a cause a re-run cannot help (the key refused, a proxy that wants credentials): what to change and who changes it.',
    lives: "The report's issue (`issue-number`).",
    writer: 'commands/report-refused.ts (records/report.ts keyRefusedKey).',
    readers: 'upsert: one note per range, edited by a re-run that is refused again.'
  },
  visitors: {
    parts: ['project', 'from', 'to'],
    says: 'This comment is the visitors table of that range.',
    lives: 'The pull request or issue it is posted on.',
    writer: 'commands/visitors.ts (records/report.ts visitorsKey).',
    readers: 'upsert (one comment per range).'
  },
  rollup: {
    parts: ['project', 'from', 'to'],
    says: 'This comment is the roll-up of many projects over that range (`project` is `*`).',
    lives: 'The issue or pull request the roll-up is posted on.',
    writer:
      'commands/rollup.ts, signed with the API key when the roll-up is given one, else with a public key (records/rollup.ts).',
    readers:
      'upsert and minimize (one comment per range; only a comment whose text is a roll-up: records/series.ts); nothing else trusts it.'
  }
} as const satisfies Record<string, KindSpec>

export type RecordKind = keyof typeof RECORD_KINDS
type PartName<K extends RecordKind> = (typeof RECORD_KINDS)[K]['parts'][number]
/** The parts of a record of kind K, by name. */
export type RecordFields<K extends RecordKind> = Record<PartName<K>, string>

const isKind = (name: string): name is RecordKind => Object.hasOwn(RECORD_KINDS, name)

/** The key of a record. */
export function recordKey<K extends RecordKind>(kind: K, fields: RecordFields<K>): string {
  const names = RECORD_KINDS[kind].parts as readonly PartName<K>[]
  return [kind, ...names.map(name => fields[name])].map(encodeURIComponent).join('/')
}

/** The parts of a key, decoded; undefined when one does not decode. */
function split(key: string): string[] | undefined {
  try {
    return key.split('/').map(decodeURIComponent)
  } catch {
    return undefined
  }
}

/** What a key of kind K says, or undefined when it is not one (another kind, another shape). */
export function parseRecord<K extends RecordKind>(
  kind: K,
  key: string
): RecordFields<K> | undefined {
  const parts = split(key)
  const spec: KindSpec = RECORD_KINDS[kind]
  const names = spec.parts
  const least = names.length - (spec.added ?? 0)
  const given = (parts?.length ?? 0) - 1
  if (!parts || parts[0] !== kind || given < least || given > names.length) return undefined
  return Object.fromEntries(names.map((name, i) => [name, parts[i + 1] ?? ''])) as RecordFields<K>
}

/** The kind a key claims and its project, whether or not it is well formed otherwise. */
export function claimOf(key: string): { kind: RecordKind; project: string } | undefined {
  const parts = split(key)
  const [kind = '', project] = parts ?? []
  return isKind(kind) && project !== undefined ? { kind, project } : undefined
}

/** Whether `fields` hold every part `match` names, as given. */
export function matches<K extends RecordKind>(
  fields: RecordFields<K>,
  match: Partial<RecordFields<K>>
): boolean {
  return (Object.keys(match) as PartName<K>[]).every(name => fields[name] === match[name])
}
