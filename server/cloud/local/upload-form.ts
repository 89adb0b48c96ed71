import { AppError } from '../../errors.ts'

/**
 * Parses a multipart/form-data body of at most `maxBytes`. Parsing holds the whole form in memory,
 * so a body announced larger is refused before reading it, and one sent without a length (chunked)
 * stops being read as soon as it passes the limit.
 */
export async function readLimitedForm(
  request: Request,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<FormData> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(type) || !request.body) {
    throw new AppError(
      400,
      'Send the drawing as multipart/form-data (fields projectId, folderId, optional itemId, and file).',
    )
  }
  const announced = request.headers.get('content-length')
  if (announced !== null && Number(announced) > maxBytes) throw tooLarge()

  let seen = 0
  let over = false
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > maxBytes) {
          over = true
          controller.error(tooLarge())
        } else controller.enqueue(chunk)
      },
    }),
  )
  const limited = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: counted,
    duplex: 'half',
  } as RequestInit)
  try {
    return await limited.formData()
  } catch {
    if (over) throw tooLarge()
    throw new AppError(400, 'The upload is not a complete multipart/form-data body.')
  }
}
