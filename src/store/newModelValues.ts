/**
 * The bound values of a new model's insert, shared by the SQL stores: name, policy, options (JSON),
 * settings (JSON), created_at, snapshot, in that column order (the version column is the literal 0).
 */
import type { NewModelRow } from './rows.js';

/**
 * @example
 * newModelValues(row); // [row.name, row.policy, '{"alpha":1}', '{...}', row.createdAt, row.snapshot]
 */
export function newModelValues(row: NewModelRow): [string, string, string, string, number, string] {
  return [
    row.name,
    row.policy,
    JSON.stringify(row.options),
    JSON.stringify(row.settings),
    row.createdAt,
    row.snapshot,
  ];
}
