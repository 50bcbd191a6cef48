import { Type, type Static, type TSchema } from 'typebox';

/** RFC 9457 problem details, used wherever the spec shows no error body. */
export const FieldProblemSchema = Type.Object({
  field: Type.String({ description: 'Where the problem is, e.g. `body.name` or `body[2].cash`' }),
  message: Type.String(),
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code' }),
    instance: Type.Optional(Type.String()),
    errors: Type.Optional(Type.Array(FieldProblemSchema)),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

export type Problem = Static<typeof ProblemSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function problem(status: number, code: string, detail: string, errors?: Problem['errors']): Problem {
  return {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

const ref = Type.Unsafe<Problem>(Type.Ref('Problem'));

/**
 * Response map for a route: the success schemas plus the error statuses it can return, so that
 * every status appears in the OpenAPI document.
 */
export function responses<S extends Record<number, TSchema>>(success: S, errors: number[] = []) {
  const all: Record<number, TSchema> = { ...success };
  for (const status of [400, 500, ...errors]) all[status] = ref;
  return all as S & Record<number, TSchema>;
}
