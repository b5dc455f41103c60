/** A response body as JSON, for assertions. */
export async function json(response: Response): Promise<any> {
  return response.json();
}
