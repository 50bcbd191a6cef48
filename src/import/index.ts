export { runImportCommand, type ImportCommandOptions } from './command.js';
export { formatImportIssue, formatImportReport, importBook, type ImportIssue, type ImportOptions, type ImportReport } from './importer.js';
