/**
 * Answers that are not JSON, documented with their real media type. Fastify takes a response
 * schema of this form (`content` by media type), and the OpenAPI documents show it as written;
 * a bare string schema would be documented as `application/json`.
 */
const answer = (mediaType: string, description: string) => ({ description, content: { [mediaType]: { schema: { type: 'string' as const } } } });

export const HtmlPage = (description = 'An HTML page') => answer('text/html', description);
export const CsvFile = (description = 'A CSV file with a header row') => answer('text/csv', description);
