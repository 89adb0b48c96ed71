import * as v from 'valibot'

/** Who is signed in, as GET /api/aps/auth/profile answers it. */
export const UserProfileSchema = v.object({
  userId: v.string(),
  name: v.string(),
  /** The picture's URL; empty when there is none. */
  picture: v.string(),
})
export type UserProfile = v.InferOutput<typeof UserProfileSchema>
