export { formatImportReport, importBook, type ImportIssue, type ImportOptions, type ImportReport } from './importer.js';
