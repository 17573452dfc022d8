// The answer to a JSON patch whose `test` operation failed. kube-apiserver and karmada-aggregated-apiserver send a bare
// 422 Invalid (apiserver's patch.go: NewGenericServerResponse without causes; test/e2e/karmada-migrate.test.ts sees
// Karmada's); `withCause` adds the patch library's words in details.causes, as a server or proxy passing them on would.
export function jsonPatchTestFailed(path: string, withCause = false): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    ...(withCause
      ? {
          details: {
            causes: [{ reason: 'UnexpectedServerResponse', message: `testing value ${path} failed: test failed` }],
          },
        }
      : {}),
    code: 422,
  };
}
