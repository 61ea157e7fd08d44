/** A problem+json body without `type` (the server adds its own type URIs). */
export interface Problem {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: FieldError[];
}

export interface FieldError {
  path: string;
  message: string;
}

export function validationProblem(errors: FieldError[]): Problem {
  return {
    status: 400,
    code: "validation_failed",
    title: "Invalid request body",
    detail: errors.map((e) => `${e.path}: ${e.message}`).slice(0, 5).join("; "),
    errors,
  };
}
