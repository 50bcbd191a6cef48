export { DEMO_CREDENTIALS_FILE, type DemoCredentials, seedDemoFirm, type SeedDemoOptions, writeDemoCredentials } from './demo.js';
