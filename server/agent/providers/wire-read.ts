/**
 * Reading a model server's JSON frames member by member: each is taken only as the type its
 * protocol gives it, anything else reads as absent. The server is whatever the owner pointed the
 * robot at, so a frame of another shape must end the turn with a sentence about the server (or be
 * ignored), never throw inside a decoder or pass a number where the agent log expects text
 * (provider-chaos.test.ts).
 */

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The member as an object; anything else reads as an empty one. */
export const objectAt = (value: unknown): Json => (isObject(value) ? value : {});

export const textAt = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const listAt = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A position in a list (a content block's or a tool call's index). */
export const indexAt = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
