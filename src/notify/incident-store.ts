/**
 * The incidents table of the state database (schema.ts): what was announced, so that each
 * incident is announced once when it starts, once when it ends, and reminded of daily, by
 * whichever process of the data directory sees it first. Every change is one IMMEDIATE
 * transaction: two processes never both announce the same start or end.
 */
import { eq } from '../state/drizzle.js';
import { incidents } from '../state/schema.js';
import type { StateDb } from '../state/state-db.js';
import type { IncidentKind } from './notify-event.js';

export interface Incident {
  readonly kind: IncidentKind;
  readonly openedAt: string;
  readonly notifiedAt: string;
  readonly resolvedAt: string | null;
  readonly summary: string;
  readonly details: Record<string, unknown>;
}

export class IncidentStore {
  constructor(private readonly state: StateDb) {}

  /** Opens an incident of `kind`; true when it was not open (announce it), false when it only got new details. */
  open(kind: IncidentKind, at: Date, summary: string, details: Record<string, unknown>): boolean {
    return this.state.sqlite
      .transaction(() => {
        const row = this.get(kind);
        const json = JSON.stringify(details);
        if (row && row.resolvedAt === null) {
          this.state.db
            .update(incidents)
            .set({ summary, details: json })
            .where(eq(incidents.kind, kind))
            .run();
          return false;
        }
        const fresh = {
          openedAt: at.toISOString(),
          notifiedAt: at.toISOString(),
          resolvedAt: null,
          summary,
          details: json,
        };
        this.state.db
          .insert(incidents)
          .values({ kind, ...fresh })
          .onConflictDoUpdate({ target: incidents.kind, set: fresh })
          .run();
        return true;
      })
      .immediate();
  }

  /** Closes the open incident of `kind`; returns it (to announce its end), or undefined when none was open. */
  resolve(kind: IncidentKind, at: Date): Incident | undefined {
    return this.state.sqlite
      .transaction(() => {
        const row = this.get(kind);
        if (!row || row.resolvedAt !== null) return undefined;
        this.state.db
          .update(incidents)
          .set({ resolvedAt: at.toISOString() })
          .where(eq(incidents.kind, kind))
          .run();
        return { ...row, resolvedAt: at.toISOString() };
      })
      .immediate();
  }

  /** Open incidents last announced `everyMs` or more before `at`, marked as announced now. */
  takeDueReminders(at: Date, everyMs: number): Incident[] {
    const cutoff = new Date(at.getTime() - everyMs).toISOString();
    return this.state.sqlite
      .transaction(() => {
        const due = this.openIncidents().filter((i) => i.notifiedAt <= cutoff);
        for (const i of due)
          this.state.db
            .update(incidents)
            .set({ notifiedAt: at.toISOString() })
            .where(eq(incidents.kind, i.kind))
            .run();
        return due;
      })
      .immediate();
  }

  openIncidents(): Incident[] {
    return this.state.db
      .select()
      .from(incidents)
      .all()
      .filter((row) => row.resolvedAt === null)
      .map(toIncident);
  }

  get(kind: IncidentKind): Incident | undefined {
    const row = this.state.db.select().from(incidents).where(eq(incidents.kind, kind)).get();
    return row ? toIncident(row) : undefined;
  }
}

function toIncident(row: typeof incidents.$inferSelect): Incident {
  return {
    kind: row.kind as IncidentKind,
    openedAt: row.openedAt,
    notifiedAt: row.notifiedAt,
    resolvedAt: row.resolvedAt,
    summary: row.summary,
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}
