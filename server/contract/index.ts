/** Wire types shared by the servers, the renderer, the platform client and tests. Declarations only. */
export type * from './state.ts';
export type * from './health.ts';
export type * from './ws.ts';
export type * from './agent.ts';
export type * from './model-settings.ts';
export type * from './personas.ts';
export type * from './auth.ts';
export type * from './motion.ts';
export type * from './platform.ts';
export type * from './platform-enrol.ts';
export type * from './recordings.ts';
export type * from './discovery.ts';
export type * from './apps.ts';
export type * from './selftest.ts';
export type * from './video.ts';
