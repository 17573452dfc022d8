// kube-apiserver's answer to a JSON patch whose `test` operation failed (apiserver's patch.go: NewGenericServerResponse
// 422): the patch library's words only in details.causes. test/e2e/karmada-migrate.test.ts asserts the real one.
export function jsonPatchTestFailed(path: string): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: {
      causes: [{ reason: 'UnexpectedServerResponse', message: `testing value ${path} failed: test failed` }],
    },
    code: 422,
  };
}
