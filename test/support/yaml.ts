// Resource files as text, for trees a test writes.

/** `apiVersion: wsync/v1` + the lines, as one document. */
export function doc(...lines: string[]): string {
  return ['apiVersion: wsync/v1', ...lines, ''].join('\n');
}

/** A YAML document of one resource; the spec in flow style (JSON). */
export function resource(kind: string, name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): string {
  const meta = annotations
    ? `metadata:\n  name: ${JSON.stringify(name)}\n  annotations:\n${Object.entries(annotations)
        .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
        .join('\n')}\n`
    : `metadata:\n  name: ${JSON.stringify(name)}\n`;
  return `apiVersion: wsync/v1\nkind: ${kind}\n${meta}spec: ${JSON.stringify(spec)}\n`;
}

/**
 * The monitor of the environment tests: its description and threshold from `${var:team}` and
 * `${var:errorThreshold}`, its interval as given (a number or a placeholder), notifying `email`.
 */
export function environmentMonitorYaml(intervalMinutes: string): string {
  return `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: errors
spec:
  type: Threshold
  description: "5xx of \${var:team}"
  aplQuery: "['app'] | where status >= 500 | summarize count() by bin_auto(_time)"
  operator: Above
  threshold: \${var:errorThreshold}
  intervalMinutes: ${intervalMinutes}
  rangeMinutes: 10
  notifiers: [email]
`;
}

/**
 * A seed of the datasets the monitors below read: a monitor on a dataset that does not exist is
 * refused as one the token may not see (docs/wire-contract.md "What the token cannot see").
 */
export const MONITOR_DATASETS = { datasets: [{ name: 'app' }, { name: 'checkout' }] };

/** An e-mail notifier to oncall@example.com. */
export function notifierYaml(name: string): string {
  return `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: ${name}
spec:
  properties:
    email:
      emails: [oncall@example.com]
`;
}

/** A threshold monitor on 5xx counts, notifying `notifier`. */
export function monitorYaml(name: string, threshold: number, notifier = 'team-email'): string {
  return `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: ${name}
spec:
  type: Threshold
  aplQuery: "['app'] | where status >= 500 | summarize count() by bin_auto(_time)"
  operator: Above
  threshold: ${threshold}
  intervalMinutes: 5
  rangeMinutes: 10
  notifiers: [${notifier}]
`;
}

/** A threshold monitor whose query names it (so no two monitors' queries are equal), with `notifiers`. */
export function namedMonitorYaml(name: string, notifiers?: string[]): string {
  return resource('Monitor', name, {
    type: 'Threshold',
    aplQuery: `['checkout'] | where status >= 500 | summarize count() by bin_auto(_time) // ${name}`,
    operator: 'Above',
    threshold: 25,
    intervalMinutes: 5,
    rangeMinutes: 10,
    ...(notifiers ? { notifiers } : {}),
  });
}

/** A custom-webhook notifier sending `header` as its Authorization header (line 11 of the text). */
export function webhookNotifierYaml(name: string, header: string): string {
  return doc(
    'kind: Notifier',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  properties:',
    '    customWebhook:',
    '      url: https://example.com/hook',
    '      body: "{}"',
    '      secretHeaders:',
    `        Authorization: ${header}`,
  );
}
