export { exportWorkspace, type ExportOptions, type ExportResult, type ExportedFile, type ExportedObject } from './workspace.js';
export type { SchemaSet } from './schema-order.js';
