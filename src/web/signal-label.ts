import { signalLabel, type SignalLabel } from '../domain/signal-label.js';
import type { SignalType } from '../schemas/enums.js';
import type { SnapshotStartup } from '../snapshot/snapshot.js';
import { html, type SafeHtml } from './html.js';

/**
 * The site's signal label: wherever a startup's signal type is shown, the strength of the evidence behind it goes
 * with it ("no evidence" when there is none), and the one-line evidence is the element's title.
 */

/** The record's label, read from the metrics stored with it. */
export function labelOf(s: SnapshotStartup): SignalLabel {
  return signalLabel(s.startup.signalType, s.metrics);
}

export function strengthText(label: SignalLabel): string {
  return label.signalStrength === 'none' ? 'no evidence' : `${label.signalStrength} evidence`;
}

/**
 * "Deploy frequency spike (strong evidence)", the evidence line on hover; a week whose type has no evidence shows
 * "No clear signal this week" instead of the placeholder type.
 */
export function signalWithStrength(type: SignalType, label: SignalLabel): SafeHtml {
  if (label.signalStrength === 'none') {
    return html`<span title="${label.signalEvidence}" data-strength="none" data-signal-type="${type}"
      >${label.signalFinding}</span
    >`;
  }
  return html`<span title="${label.signalEvidence}" data-strength="${label.signalStrength}"
    >${type} <span class="muted">(${strengthText(label)})</span></span
  >`;
}

/** The same for a startup of the current period. */
export function signalOf(s: SnapshotStartup): SafeHtml {
  return signalWithStrength(s.startup.signalType, labelOf(s));
}

/**
 * The same in a ranking row, on one line: the strength as one word beside the type ("weak", "strong"), the word
 * "evidence" kept for screen readers, the column heading saying what the word is; "No clear signal" without evidence.
 */
export function signalCell(s: SnapshotStartup): SafeHtml {
  const label = labelOf(s);
  if (label.signalStrength === 'none') {
    // The type of a week without evidence is a placeholder: the row says there is no clear signal.
    return html`<span title="${label.signalEvidence}" data-strength="none" data-signal-type="${s.startup.signalType}"
      >No clear signal</span
    >`;
  }
  return html`<span title="${label.signalEvidence}" data-strength="${label.signalStrength}"
    >${s.startup.signalType}
    <span class="strength">${label.signalStrength}<span class="visually-hidden"> evidence</span></span></span
  >`;
}
