/**
 * The desktop app's identity, shared by the main process and electron-builder.yml (a test keeps
 * them equal). Windows routes notifications by the AppUserModelID, which the NSIS installer
 * gives the Start-menu shortcut from `appId`: the two must match for notifications to show.
 */
export const APP_ID = 'app.robotcockpit.desktop';
export const PRODUCT_NAME = 'Robot Cockpit';
