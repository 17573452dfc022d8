// Generated from schemas/ by `npm run generate` (scripts/generate/validators.ts). Do not edit: change the schema
// or the generator and regenerate. The validators, checking only.
// ajv's standalone code: plain JavaScript, not type-checked; packages/schema/src/schema/ajv-validators.ts gives it its types.
// @ts-nocheck

/** The validators by name; `runtime` is packages/schema/src/schema/ajv-runtime.ts. The code imports nothing. */
export function validators(runtime) {
const exports = {};
exports.cluster = validate10;
const schema11 = {"$id":"cluster.schema.json","title":"Cluster","description":"Cluster represents the desired state and status of a member cluster of Karmada, with a liveness probe that tells whether work can still run there.","type":"object","required":["spec"],"properties":{"apiVersion":{"description":"APIVersion defines the versioned schema of this representation of an object: cluster.karmada.io/v1alpha1.","type":"string","maxLength":317},"kind":{"description":"Kind is a string value representing the REST resource this object represents: Cluster.","type":"string","maxLength":63},"metadata":{"description":"Standard object metadata. The name must be a DNS-1123 label of at most 48 characters.","type":"object"},"spec":{"title":"ClusterSpec","description":"Spec represents the specification of the desired behavior of the member cluster.","type":"object","required":["syncMode"],"properties":{"id":{"description":"ID is the unique identifier for the cluster, typically collected from the member during registration.","type":"string","maxLength":128000},"syncMode":{"description":"SyncMode describes how a cluster syncs resources from the Karmada control plane: Push or Pull.","type":"string","enum":["Pull","Push"]},"apiEndpoint":{"description":"The API endpoint of the member cluster: a URL such as https://10.0.0.1:6443 (hostname, hostname:port, IP or IP:port).","type":"string","maxLength":2048},"secretRef":{"title":"LocalSecretReference","description":"The Secret (with keys token and caBundle) that holds the credentials for the member cluster's API.","type":"object","required":["namespace","name"],"properties":{"namespace":{"description":"Namespace of the Secret.","type":"string","maxLength":63},"name":{"description":"Name of the Secret.","type":"string","maxLength":253}}},"impersonatorSecretRef":{"title":"LocalSecretReference","description":"The Secret that holds the token of the impersonator service account of the member cluster.","type":"object","required":["namespace","name"],"properties":{"namespace":{"description":"Namespace of the Secret.","type":"string","maxLength":63},"name":{"description":"Name of the Secret.","type":"string","maxLength":253}}},"insecureSkipTLSVerification":{"description":"Skip verification of the member API's certificate. Insecure; for testing only.","type":"boolean"},"proxyURL":{"description":"Proxy to reach the member cluster through: a URL with scheme http, https or socks5.","type":"string","maxLength":2048,"x-kubernetes-validations":[{"rule":"self == '' || self.matches('^(?i)(https?|socks5):')","message":"unsupported scheme, must be http, https, or socks5"}]},"proxyHeader":{"description":"HTTP headers to send to the proxy.","type":"object","additionalProperties":{"type":"string","maxLength":4096}},"provider":{"description":"The cloud provider name of the member cluster.","type":"string","maxLength":63},"region":{"description":"The region where the member cluster is located.","type":"string","maxLength":63},"zone":{"description":"Deprecated: use zones. The zone where the member cluster is located.","type":"string","maxLength":63},"zones":{"description":"The zones where the member cluster is located.","type":"array","items":{"type":"string","maxLength":63}},"taints":{"description":"Taints of the member cluster. The reconciler owns only cluster.karmada.io/unhealthy.","type":"array","items":{"title":"Taint","description":"A taint that keeps workloads that do not tolerate it off the cluster.","type":"object","required":["key","effect"],"properties":{"key":{"description":"The taint key to be applied to a cluster.","type":"string","maxLength":317},"value":{"description":"The taint value corresponding to the taint key.","type":"string","maxLength":63},"effect":{"description":"The effect of the taint: NoSchedule or NoExecute.","type":"string","enum":["NoSchedule","NoExecute"]},"timeAdded":{"description":"The time at which the taint was added (for NoExecute taints).","type":"string","format":"date-time","maxLength":64}}}},"resourceModels":{"description":"Resource models of the cluster, from grade 0 upwards, with contiguous ranges starting at 0.","type":"array","items":{"title":"ResourceModel","description":"One grade of the resource model.","type":"object","required":["grade","ranges"],"properties":{"grade":{"description":"The index of this model.","type":"integer","minimum":0},"ranges":{"description":"The range of each resource in this grade.","type":"array","items":{"title":"ResourceModelRange","description":"The interval [min, max) of one resource.","type":"object","required":["name","min","max"],"properties":{"name":{"description":"The resource name, e.g. cpu, memory, storage, ephemeral-storage or an extended resource such as nvidia.com/gpu (Karmada checks no names).","type":"string","maxLength":317},"min":{"description":"The minimum (inclusive), a Kubernetes quantity.","x-kubernetes-int-or-string":true},"max":{"description":"The maximum (exclusive), a Kubernetes quantity.","x-kubernetes-int-or-string":true}}}}}}},"livenessProbe":{"$ref":"liveness-probe.schema.json"}},"x-kubernetes-validations":[{"rule":"!has(self.zone) || !has(self.zones)","fieldPath":".zones","message":"may not be set together with spec.zone (deprecated); move the zone into zones"}]},"status":{"title":"ClusterStatus","description":"Status represents the most recently observed status of the member cluster.","type":"object","properties":{"kubernetesVersion":{"description":"The Kubernetes version of the member cluster.","type":"string","maxLength":256},"apiEnablements":{"description":"The API groups and resources the member cluster serves.","type":"array","items":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},"conditions":{"description":"The current state of the cluster, among them Ready and Healthy (written by the probe reconciler).","type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],"items":{"title":"Condition","description":"One aspect of the current state of the cluster.","type":"object","required":["type","status","lastTransitionTime","reason","message"],"properties":{"type":{"description":"Type of the condition, e.g. Healthy.","type":"string","maxLength":316},"status":{"description":"Status of the condition: True, False or Unknown.","type":"string","enum":["True","False","Unknown"]},"observedGeneration":{"description":"The metadata.generation the condition was set for.","type":"integer","format":"int64","minimum":0},"lastTransitionTime":{"description":"When the condition last changed from one status to another.","type":"string","format":"date-time","maxLength":64},"reason":{"description":"A CamelCase reason for the last transition, e.g. LivenessProbeFailed.","type":"string","maxLength":1024},"message":{"description":"A human-readable message on the transition.","type":"string","maxLength":32768}}}},"nodeSummary":{"description":"A summary of the nodes of the member cluster.","type":"object","x-kubernetes-preserve-unknown-fields":true},"resourceSummary":{"description":"A summary of the resources of the member cluster.","type":"object","x-kubernetes-preserve-unknown-fields":true},"remedyActions":{"description":"The remedy actions Karmada takes for the cluster.","type":"array","items":{"type":"string","maxLength":256}}}}}};
const schema12 = {"$id":"liveness-probe.schema.json","title":"LivenessProbe","description":"How the health of a member cluster is probed, modelled on a Pod's livenessProbe. Exactly one handler (httpGet, tcpSocket, grpc or apiServer) must be set.","type":"object","additionalProperties":false,"properties":{"httpGet":{"title":"HTTPGetAction","description":"An HTTP GET request; any status from 200 to 399 is a success.","type":"object","additionalProperties":false,"required":["port"],"properties":{"scheme":{"description":"Scheme to connect with: HTTP or HTTPS. HTTPS is verified against caBundle or the system roots unless insecureSkipTLSVerify is true.","type":"string","enum":["HTTP","HTTPS"],"default":"HTTP"},"host":{"description":"Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint.","type":"string","maxLength":253},"port":{"description":"Port to connect to: a number from 1 to 65535 or an IANA service name such as \"https\".","x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"type(self) == string || (self >= 1 && self <= 65535)","message":"must be between 1 and 65535, inclusive"}]},"path":{"description":"Path to request, starting with '/'.","type":"string","default":"/","maxLength":2048},"httpHeaders":{"description":"Custom headers to send. A Host header sets the request's host.","type":"array","maxItems":32,"x-kubernetes-list-type":"atomic","items":{"title":"HTTPHeader","description":"One HTTP header.","type":"object","additionalProperties":false,"required":["name","value"],"properties":{"name":{"description":"Header field name; alphanumerics and '-'.","type":"string","maxLength":256},"value":{"description":"Header field value.","type":"string","maxLength":4096}}}},"caBundle":{"description":"Base64-encoded PEM bundle of the CA certificates that sign the server's certificate. Defaults to the system roots.","type":"string","maxLength":65536},"insecureSkipTLSVerify":{"description":"Skip verification of the server's certificate. An explicit opt-out: use only for testing.","type":"boolean"}}},"tcpSocket":{"title":"TCPSocketAction","description":"A TCP connection that is opened and closed; success when it connects.","type":"object","additionalProperties":false,"required":["port"],"properties":{"host":{"description":"Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint.","type":"string","maxLength":253},"port":{"description":"Port to connect to: a number from 1 to 65535 or an IANA service name.","x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"type(self) == string || (self >= 1 && self <= 65535)","message":"must be between 1 and 65535, inclusive"}]}}},"grpc":{"title":"GRPCAction","description":"A grpc.health.v1 Check call; SERVING is a success.","type":"object","additionalProperties":false,"required":["port"],"properties":{"host":{"description":"Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint.","type":"string","maxLength":253},"port":{"description":"Port number of the gRPC service, from 1 to 65535 (names are not accepted).","type":"integer","format":"int32","x-kubernetes-validations":[{"rule":"self >= 1 && self <= 65535","message":"must be between 1 and 65535, inclusive"}]},"service":{"description":"Service name to pass in the HealthCheckRequest; empty asks for the server's overall health.","type":"string","default":"","maxLength":256}}},"apiServer":{"title":"APIServerAction","description":"A check through the member's own API with the credentials that spec.secretRef names: GET path, then the optional counts of Ready nodes and pods.","type":"object","additionalProperties":false,"properties":{"path":{"description":"Path to request on spec.apiEndpoint.","type":"string","default":"/readyz","maxLength":2048},"minReadyNodes":{"description":"At least this many Nodes must have the condition Ready=True.","type":"integer","format":"int32","minimum":0},"minReadyPods":{"description":"At least this many Running, Ready pods that do not use the host network must exist.","type":"integer","format":"int32","minimum":0}}},"initialDelaySeconds":{"description":"Seconds after the probe is first seen before it runs the first time. Not defaulted (as the kubelet): absent means 0.","type":"integer","format":"int32","minimum":0},"timeoutSeconds":{"description":"Seconds after which one probe times out. Minimum 1.","type":"integer","format":"int32","minimum":1,"default":1},"periodSeconds":{"description":"How often, in seconds, to probe. Minimum 1.","type":"integer","format":"int32","minimum":1,"default":10},"successThreshold":{"description":"Consecutive successes for the cluster to be considered healthy after having failed. May exceed 1 here, to damp recovery.","type":"integer","format":"int32","minimum":1,"default":1},"failureThreshold":{"description":"Consecutive failures for the cluster to be considered unhealthy.","type":"integer","format":"int32","minimum":1,"default":3}},"x-kubernetes-validations":[{"rule":"has(self.httpGet) || has(self.tcpSocket) || has(self.grpc) || has(self.apiServer)","message":"must specify a handler type"},{"rule":"[has(self.httpGet), has(self.tcpSocket), has(self.grpc), has(self.apiServer)].filter(x, x).size() <= 1","message":"may not specify more than 1 handler type"}]};
const schema13 = ["type"];
const func2 = runtime.codePoints;
const func20 = runtime.isIntOrString;
const func22 = Object.prototype.hasOwnProperty;
const func39 = runtime.listMapKeysUnique;
const formats0 = runtime.formats["date-time"];
const formats2 = runtime.formats.int32;
const formats18 = runtime.formats.int64;

function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="cluster.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.spec === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "spec"}};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.apiVersion !== undefined){
let data0 = data.apiVersion;
if(typeof data0 === "string"){
if(data0.length > 317 && func2(data0) > 317){
const err1 = {instancePath:instancePath+"/apiVersion",schemaPath:"#/properties/apiVersion/maxLength",keyword:"maxLength",params:{limit: 317}};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/apiVersion",schemaPath:"#/properties/apiVersion/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.kind !== undefined){
let data1 = data.kind;
if(typeof data1 === "string"){
if(data1.length > 63 && func2(data1) > 63){
const err3 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.metadata !== undefined){
let data2 = data.metadata;
if(!(data2 && typeof data2 == "object" && !Array.isArray(data2))){
const err5 = {instancePath:instancePath+"/metadata",schemaPath:"#/properties/metadata/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.spec !== undefined){
let data3 = data.spec;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
if(data3.syncMode === undefined){
const err6 = {instancePath:instancePath+"/spec",schemaPath:"#/properties/spec/required",keyword:"required",params:{missingProperty: "syncMode"}};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data3.id !== undefined){
let data4 = data3.id;
if(typeof data4 === "string"){
if(data4.length > 128000 && func2(data4) > 128000){
const err7 = {instancePath:instancePath+"/spec/id",schemaPath:"#/properties/spec/properties/id/maxLength",keyword:"maxLength",params:{limit: 128000}};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/spec/id",schemaPath:"#/properties/spec/properties/id/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data3.syncMode !== undefined){
let data5 = data3.syncMode;
if(typeof data5 !== "string"){
const err9 = {instancePath:instancePath+"/spec/syncMode",schemaPath:"#/properties/spec/properties/syncMode/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(!((data5 === "Pull") || (data5 === "Push"))){
const err10 = {instancePath:instancePath+"/spec/syncMode",schemaPath:"#/properties/spec/properties/syncMode/enum",keyword:"enum",params:{allowedValues: schema11.properties.spec.properties.syncMode.enum}};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data3.apiEndpoint !== undefined){
let data6 = data3.apiEndpoint;
if(typeof data6 === "string"){
if(data6.length > 2048 && func2(data6) > 2048){
const err11 = {instancePath:instancePath+"/spec/apiEndpoint",schemaPath:"#/properties/spec/properties/apiEndpoint/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/spec/apiEndpoint",schemaPath:"#/properties/spec/properties/apiEndpoint/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data3.secretRef !== undefined){
let data7 = data3.secretRef;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
if(data7.namespace === undefined){
const err13 = {instancePath:instancePath+"/spec/secretRef",schemaPath:"#/properties/spec/properties/secretRef/required",keyword:"required",params:{missingProperty: "namespace"}};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data7.name === undefined){
const err14 = {instancePath:instancePath+"/spec/secretRef",schemaPath:"#/properties/spec/properties/secretRef/required",keyword:"required",params:{missingProperty: "name"}};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(data7.namespace !== undefined){
let data8 = data7.namespace;
if(typeof data8 === "string"){
if(data8.length > 63 && func2(data8) > 63){
const err15 = {instancePath:instancePath+"/spec/secretRef/namespace",schemaPath:"#/properties/spec/properties/secretRef/properties/namespace/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/spec/secretRef/namespace",schemaPath:"#/properties/spec/properties/secretRef/properties/namespace/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data7.name !== undefined){
let data9 = data7.name;
if(typeof data9 === "string"){
if(data9.length > 253 && func2(data9) > 253){
const err17 = {instancePath:instancePath+"/spec/secretRef/name",schemaPath:"#/properties/spec/properties/secretRef/properties/name/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/spec/secretRef/name",schemaPath:"#/properties/spec/properties/secretRef/properties/name/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/spec/secretRef",schemaPath:"#/properties/spec/properties/secretRef/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data3.impersonatorSecretRef !== undefined){
let data10 = data3.impersonatorSecretRef;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.namespace === undefined){
const err20 = {instancePath:instancePath+"/spec/impersonatorSecretRef",schemaPath:"#/properties/spec/properties/impersonatorSecretRef/required",keyword:"required",params:{missingProperty: "namespace"}};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(data10.name === undefined){
const err21 = {instancePath:instancePath+"/spec/impersonatorSecretRef",schemaPath:"#/properties/spec/properties/impersonatorSecretRef/required",keyword:"required",params:{missingProperty: "name"}};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(data10.namespace !== undefined){
let data11 = data10.namespace;
if(typeof data11 === "string"){
if(data11.length > 63 && func2(data11) > 63){
const err22 = {instancePath:instancePath+"/spec/impersonatorSecretRef/namespace",schemaPath:"#/properties/spec/properties/impersonatorSecretRef/properties/namespace/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
else {
const err23 = {instancePath:instancePath+"/spec/impersonatorSecretRef/namespace",schemaPath:"#/properties/spec/properties/impersonatorSecretRef/properties/namespace/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data10.name !== undefined){
let data12 = data10.name;
if(typeof data12 === "string"){
if(data12.length > 253 && func2(data12) > 253){
const err24 = {instancePath:instancePath+"/spec/impersonatorSecretRef/name",schemaPath:"#/properties/spec/properties/impersonatorSecretRef/properties/name/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/spec/impersonatorSecretRef/name",schemaPath:"#/properties/spec/properties/impersonatorSecretRef/properties/name/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/spec/impersonatorSecretRef",schemaPath:"#/properties/spec/properties/impersonatorSecretRef/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data3.insecureSkipTLSVerification !== undefined){
if(typeof data3.insecureSkipTLSVerification !== "boolean"){
const err27 = {instancePath:instancePath+"/spec/insecureSkipTLSVerification",schemaPath:"#/properties/spec/properties/insecureSkipTLSVerification/type",keyword:"type",params:{type: "boolean"}};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data3.proxyURL !== undefined){
let data14 = data3.proxyURL;
if(typeof data14 === "string"){
if(data14.length > 2048 && func2(data14) > 2048){
const err28 = {instancePath:instancePath+"/spec/proxyURL",schemaPath:"#/properties/spec/properties/proxyURL/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
else {
const err29 = {instancePath:instancePath+"/spec/proxyURL",schemaPath:"#/properties/spec/properties/proxyURL/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data3.proxyHeader !== undefined){
let data15 = data3.proxyHeader;
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
for(const key0 in data15){
let data16 = data15[key0];
if(typeof data16 === "string"){
if(data16.length > 4096 && func2(data16) > 4096){
const err30 = {instancePath:instancePath+"/spec/proxyHeader/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/spec/properties/proxyHeader/additionalProperties/maxLength",keyword:"maxLength",params:{limit: 4096}};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
else {
const err31 = {instancePath:instancePath+"/spec/proxyHeader/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/spec/properties/proxyHeader/additionalProperties/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
else {
const err32 = {instancePath:instancePath+"/spec/proxyHeader",schemaPath:"#/properties/spec/properties/proxyHeader/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data3.provider !== undefined){
let data17 = data3.provider;
if(typeof data17 === "string"){
if(data17.length > 63 && func2(data17) > 63){
const err33 = {instancePath:instancePath+"/spec/provider",schemaPath:"#/properties/spec/properties/provider/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
else {
const err34 = {instancePath:instancePath+"/spec/provider",schemaPath:"#/properties/spec/properties/provider/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data3.region !== undefined){
let data18 = data3.region;
if(typeof data18 === "string"){
if(data18.length > 63 && func2(data18) > 63){
const err35 = {instancePath:instancePath+"/spec/region",schemaPath:"#/properties/spec/properties/region/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
else {
const err36 = {instancePath:instancePath+"/spec/region",schemaPath:"#/properties/spec/properties/region/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data3.zone !== undefined){
let data19 = data3.zone;
if(typeof data19 === "string"){
if(data19.length > 63 && func2(data19) > 63){
const err37 = {instancePath:instancePath+"/spec/zone",schemaPath:"#/properties/spec/properties/zone/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
else {
const err38 = {instancePath:instancePath+"/spec/zone",schemaPath:"#/properties/spec/properties/zone/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data3.zones !== undefined){
let data20 = data3.zones;
if(Array.isArray(data20)){
const len0 = data20.length;
for(let i0=0; i0<len0; i0++){
let data21 = data20[i0];
if(typeof data21 === "string"){
if(data21.length > 63 && func2(data21) > 63){
const err39 = {instancePath:instancePath+"/spec/zones/" + i0,schemaPath:"#/properties/spec/properties/zones/items/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
else {
const err40 = {instancePath:instancePath+"/spec/zones/" + i0,schemaPath:"#/properties/spec/properties/zones/items/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
}
else {
const err41 = {instancePath:instancePath+"/spec/zones",schemaPath:"#/properties/spec/properties/zones/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
if(data3.taints !== undefined){
let data22 = data3.taints;
if(Array.isArray(data22)){
const len1 = data22.length;
for(let i1=0; i1<len1; i1++){
let data23 = data22[i1];
if(data23 && typeof data23 == "object" && !Array.isArray(data23)){
if(data23.key === undefined){
const err42 = {instancePath:instancePath+"/spec/taints/" + i1,schemaPath:"#/properties/spec/properties/taints/items/required",keyword:"required",params:{missingProperty: "key"}};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
if(data23.effect === undefined){
const err43 = {instancePath:instancePath+"/spec/taints/" + i1,schemaPath:"#/properties/spec/properties/taints/items/required",keyword:"required",params:{missingProperty: "effect"}};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
if(data23.key !== undefined){
let data24 = data23.key;
if(typeof data24 === "string"){
if(data24.length > 317 && func2(data24) > 317){
const err44 = {instancePath:instancePath+"/spec/taints/" + i1+"/key",schemaPath:"#/properties/spec/properties/taints/items/properties/key/maxLength",keyword:"maxLength",params:{limit: 317}};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
else {
const err45 = {instancePath:instancePath+"/spec/taints/" + i1+"/key",schemaPath:"#/properties/spec/properties/taints/items/properties/key/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
if(data23.value !== undefined){
let data25 = data23.value;
if(typeof data25 === "string"){
if(data25.length > 63 && func2(data25) > 63){
const err46 = {instancePath:instancePath+"/spec/taints/" + i1+"/value",schemaPath:"#/properties/spec/properties/taints/items/properties/value/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
else {
const err47 = {instancePath:instancePath+"/spec/taints/" + i1+"/value",schemaPath:"#/properties/spec/properties/taints/items/properties/value/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(data23.effect !== undefined){
let data26 = data23.effect;
if(typeof data26 !== "string"){
const err48 = {instancePath:instancePath+"/spec/taints/" + i1+"/effect",schemaPath:"#/properties/spec/properties/taints/items/properties/effect/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
if(!((data26 === "NoSchedule") || (data26 === "NoExecute"))){
const err49 = {instancePath:instancePath+"/spec/taints/" + i1+"/effect",schemaPath:"#/properties/spec/properties/taints/items/properties/effect/enum",keyword:"enum",params:{allowedValues: schema11.properties.spec.properties.taints.items.properties.effect.enum}};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
if(data23.timeAdded !== undefined){
let data27 = data23.timeAdded;
if(typeof data27 === "string"){
if(!(formats0.validate(data27))){
const err50 = {instancePath:instancePath+"/spec/taints/" + i1+"/timeAdded",schemaPath:"#/properties/spec/properties/taints/items/properties/timeAdded/format",keyword:"format",params:{format: "date-time"}};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
if(data27.length > 64 && func2(data27) > 64){
const err51 = {instancePath:instancePath+"/spec/taints/" + i1+"/timeAdded",schemaPath:"#/properties/spec/properties/taints/items/properties/timeAdded/maxLength",keyword:"maxLength",params:{limit: 64}};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
else {
const err52 = {instancePath:instancePath+"/spec/taints/" + i1+"/timeAdded",schemaPath:"#/properties/spec/properties/taints/items/properties/timeAdded/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
}
else {
const err53 = {instancePath:instancePath+"/spec/taints/" + i1,schemaPath:"#/properties/spec/properties/taints/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
}
}
else {
const err54 = {instancePath:instancePath+"/spec/taints",schemaPath:"#/properties/spec/properties/taints/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
}
if(data3.resourceModels !== undefined){
let data28 = data3.resourceModels;
if(Array.isArray(data28)){
const len2 = data28.length;
for(let i2=0; i2<len2; i2++){
let data29 = data28[i2];
if(data29 && typeof data29 == "object" && !Array.isArray(data29)){
if(data29.grade === undefined){
const err55 = {instancePath:instancePath+"/spec/resourceModels/" + i2,schemaPath:"#/properties/spec/properties/resourceModels/items/required",keyword:"required",params:{missingProperty: "grade"}};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
if(data29.ranges === undefined){
const err56 = {instancePath:instancePath+"/spec/resourceModels/" + i2,schemaPath:"#/properties/spec/properties/resourceModels/items/required",keyword:"required",params:{missingProperty: "ranges"}};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
if(data29.grade !== undefined){
let data30 = data29.grade;
if(!(((typeof data30 == "number") && (!(data30 % 1) && !isNaN(data30))) && (isFinite(data30)))){
const err57 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/grade",schemaPath:"#/properties/spec/properties/resourceModels/items/properties/grade/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
if((typeof data30 == "number") && (isFinite(data30))){
if(data30 < 0 || isNaN(data30)){
const err58 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/grade",schemaPath:"#/properties/spec/properties/resourceModels/items/properties/grade/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
}
if(data29.ranges !== undefined){
let data31 = data29.ranges;
if(Array.isArray(data31)){
const len3 = data31.length;
for(let i3=0; i3<len3; i3++){
let data32 = data31[i3];
if(data32 && typeof data32 == "object" && !Array.isArray(data32)){
if(data32.name === undefined){
const err59 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3,schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/required",keyword:"required",params:{missingProperty: "name"}};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
if(data32.min === undefined){
const err60 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3,schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/required",keyword:"required",params:{missingProperty: "min"}};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
if(data32.max === undefined){
const err61 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3,schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/required",keyword:"required",params:{missingProperty: "max"}};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
if(data32.name !== undefined){
let data33 = data32.name;
if(typeof data33 === "string"){
if(data33.length > 317 && func2(data33) > 317){
const err62 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3+"/name",schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/properties/name/maxLength",keyword:"maxLength",params:{limit: 317}};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
else {
const err63 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3+"/name",schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/properties/name/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
if(data32.min !== undefined){
if(!func20(data32.min)){
const err64 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3+"/min",schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/properties/min/x-kubernetes-int-or-string",keyword:"x-kubernetes-int-or-string",params:{}};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
if(data32.max !== undefined){
if(!func20(data32.max)){
const err65 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3+"/max",schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/properties/max/x-kubernetes-int-or-string",keyword:"x-kubernetes-int-or-string",params:{}};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
}
else {
const err66 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges/" + i3,schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
}
}
else {
const err67 = {instancePath:instancePath+"/spec/resourceModels/" + i2+"/ranges",schemaPath:"#/properties/spec/properties/resourceModels/items/properties/ranges/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
}
}
else {
const err68 = {instancePath:instancePath+"/spec/resourceModels/" + i2,schemaPath:"#/properties/spec/properties/resourceModels/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
}
else {
const err69 = {instancePath:instancePath+"/spec/resourceModels",schemaPath:"#/properties/spec/properties/resourceModels/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
if(data3.livenessProbe !== undefined){
let data36 = data3.livenessProbe;
if(data36 && typeof data36 == "object" && !Array.isArray(data36)){
for(const key1 in data36){
if(!(func22.call(schema12.properties, key1))){
const err70 = {instancePath:instancePath+"/spec/livenessProbe",schemaPath:"liveness-probe.schema.json/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1}};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
}
if(data36.httpGet !== undefined){
let data37 = data36.httpGet;
if(data37 && typeof data37 == "object" && !Array.isArray(data37)){
if(data37.port === undefined){
const err71 = {instancePath:instancePath+"/spec/livenessProbe/httpGet",schemaPath:"liveness-probe.schema.json/properties/httpGet/required",keyword:"required",params:{missingProperty: "port"}};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
for(const key2 in data37){
if(!(((((((key2 === "scheme") || (key2 === "host")) || (key2 === "port")) || (key2 === "path")) || (key2 === "httpHeaders")) || (key2 === "caBundle")) || (key2 === "insecureSkipTLSVerify"))){
const err72 = {instancePath:instancePath+"/spec/livenessProbe/httpGet",schemaPath:"liveness-probe.schema.json/properties/httpGet/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2}};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
}
if(data37.scheme !== undefined){
let data38 = data37.scheme;
if(typeof data38 !== "string"){
const err73 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/scheme",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/scheme/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
if(!((data38 === "HTTP") || (data38 === "HTTPS"))){
const err74 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/scheme",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/scheme/enum",keyword:"enum",params:{allowedValues: schema12.properties.httpGet.properties.scheme.enum}};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
}
if(data37.host !== undefined){
let data39 = data37.host;
if(typeof data39 === "string"){
if(data39.length > 253 && func2(data39) > 253){
const err75 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/host",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/host/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
}
else {
const err76 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/host",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/host/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err76];
}
else {
vErrors.push(err76);
}
errors++;
}
}
if(data37.port !== undefined){
if(!func20(data37.port)){
const err77 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/port",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/port/x-kubernetes-int-or-string",keyword:"x-kubernetes-int-or-string",params:{}};
if(vErrors === null){
vErrors = [err77];
}
else {
vErrors.push(err77);
}
errors++;
}
}
if(data37.path !== undefined){
let data41 = data37.path;
if(typeof data41 === "string"){
if(data41.length > 2048 && func2(data41) > 2048){
const err78 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/path",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/path/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err78];
}
else {
vErrors.push(err78);
}
errors++;
}
}
else {
const err79 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/path",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/path/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err79];
}
else {
vErrors.push(err79);
}
errors++;
}
}
if(data37.httpHeaders !== undefined){
let data42 = data37.httpHeaders;
if(Array.isArray(data42)){
if(data42.length > 32){
const err80 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/maxItems",keyword:"maxItems",params:{limit: 32}};
if(vErrors === null){
vErrors = [err80];
}
else {
vErrors.push(err80);
}
errors++;
}
const len4 = data42.length;
for(let i4=0; i4<len4; i4++){
let data43 = data42[i4];
if(data43 && typeof data43 == "object" && !Array.isArray(data43)){
if(data43.name === undefined){
const err81 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4,schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/required",keyword:"required",params:{missingProperty: "name"}};
if(vErrors === null){
vErrors = [err81];
}
else {
vErrors.push(err81);
}
errors++;
}
if(data43.value === undefined){
const err82 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4,schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/required",keyword:"required",params:{missingProperty: "value"}};
if(vErrors === null){
vErrors = [err82];
}
else {
vErrors.push(err82);
}
errors++;
}
for(const key3 in data43){
if(!((key3 === "name") || (key3 === "value"))){
const err83 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4,schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3}};
if(vErrors === null){
vErrors = [err83];
}
else {
vErrors.push(err83);
}
errors++;
}
}
if(data43.name !== undefined){
let data44 = data43.name;
if(typeof data44 === "string"){
if(data44.length > 256 && func2(data44) > 256){
const err84 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4+"/name",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/properties/name/maxLength",keyword:"maxLength",params:{limit: 256}};
if(vErrors === null){
vErrors = [err84];
}
else {
vErrors.push(err84);
}
errors++;
}
}
else {
const err85 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4+"/name",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/properties/name/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err85];
}
else {
vErrors.push(err85);
}
errors++;
}
}
if(data43.value !== undefined){
let data45 = data43.value;
if(typeof data45 === "string"){
if(data45.length > 4096 && func2(data45) > 4096){
const err86 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4+"/value",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/properties/value/maxLength",keyword:"maxLength",params:{limit: 4096}};
if(vErrors === null){
vErrors = [err86];
}
else {
vErrors.push(err86);
}
errors++;
}
}
else {
const err87 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4+"/value",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/properties/value/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err87];
}
else {
vErrors.push(err87);
}
errors++;
}
}
}
else {
const err88 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders/" + i4,schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err88];
}
else {
vErrors.push(err88);
}
errors++;
}
}
}
else {
const err89 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/httpHeaders",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/httpHeaders/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err89];
}
else {
vErrors.push(err89);
}
errors++;
}
}
if(data37.caBundle !== undefined){
let data46 = data37.caBundle;
if(typeof data46 === "string"){
if(data46.length > 65536 && func2(data46) > 65536){
const err90 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/caBundle",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/caBundle/maxLength",keyword:"maxLength",params:{limit: 65536}};
if(vErrors === null){
vErrors = [err90];
}
else {
vErrors.push(err90);
}
errors++;
}
}
else {
const err91 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/caBundle",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/caBundle/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err91];
}
else {
vErrors.push(err91);
}
errors++;
}
}
if(data37.insecureSkipTLSVerify !== undefined){
if(typeof data37.insecureSkipTLSVerify !== "boolean"){
const err92 = {instancePath:instancePath+"/spec/livenessProbe/httpGet/insecureSkipTLSVerify",schemaPath:"liveness-probe.schema.json/properties/httpGet/properties/insecureSkipTLSVerify/type",keyword:"type",params:{type: "boolean"}};
if(vErrors === null){
vErrors = [err92];
}
else {
vErrors.push(err92);
}
errors++;
}
}
}
else {
const err93 = {instancePath:instancePath+"/spec/livenessProbe/httpGet",schemaPath:"liveness-probe.schema.json/properties/httpGet/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err93];
}
else {
vErrors.push(err93);
}
errors++;
}
}
if(data36.tcpSocket !== undefined){
let data48 = data36.tcpSocket;
if(data48 && typeof data48 == "object" && !Array.isArray(data48)){
if(data48.port === undefined){
const err94 = {instancePath:instancePath+"/spec/livenessProbe/tcpSocket",schemaPath:"liveness-probe.schema.json/properties/tcpSocket/required",keyword:"required",params:{missingProperty: "port"}};
if(vErrors === null){
vErrors = [err94];
}
else {
vErrors.push(err94);
}
errors++;
}
for(const key4 in data48){
if(!((key4 === "host") || (key4 === "port"))){
const err95 = {instancePath:instancePath+"/spec/livenessProbe/tcpSocket",schemaPath:"liveness-probe.schema.json/properties/tcpSocket/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4}};
if(vErrors === null){
vErrors = [err95];
}
else {
vErrors.push(err95);
}
errors++;
}
}
if(data48.host !== undefined){
let data49 = data48.host;
if(typeof data49 === "string"){
if(data49.length > 253 && func2(data49) > 253){
const err96 = {instancePath:instancePath+"/spec/livenessProbe/tcpSocket/host",schemaPath:"liveness-probe.schema.json/properties/tcpSocket/properties/host/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err96];
}
else {
vErrors.push(err96);
}
errors++;
}
}
else {
const err97 = {instancePath:instancePath+"/spec/livenessProbe/tcpSocket/host",schemaPath:"liveness-probe.schema.json/properties/tcpSocket/properties/host/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err97];
}
else {
vErrors.push(err97);
}
errors++;
}
}
if(data48.port !== undefined){
if(!func20(data48.port)){
const err98 = {instancePath:instancePath+"/spec/livenessProbe/tcpSocket/port",schemaPath:"liveness-probe.schema.json/properties/tcpSocket/properties/port/x-kubernetes-int-or-string",keyword:"x-kubernetes-int-or-string",params:{}};
if(vErrors === null){
vErrors = [err98];
}
else {
vErrors.push(err98);
}
errors++;
}
}
}
else {
const err99 = {instancePath:instancePath+"/spec/livenessProbe/tcpSocket",schemaPath:"liveness-probe.schema.json/properties/tcpSocket/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err99];
}
else {
vErrors.push(err99);
}
errors++;
}
}
if(data36.grpc !== undefined){
let data51 = data36.grpc;
if(data51 && typeof data51 == "object" && !Array.isArray(data51)){
if(data51.port === undefined){
const err100 = {instancePath:instancePath+"/spec/livenessProbe/grpc",schemaPath:"liveness-probe.schema.json/properties/grpc/required",keyword:"required",params:{missingProperty: "port"}};
if(vErrors === null){
vErrors = [err100];
}
else {
vErrors.push(err100);
}
errors++;
}
for(const key5 in data51){
if(!(((key5 === "host") || (key5 === "port")) || (key5 === "service"))){
const err101 = {instancePath:instancePath+"/spec/livenessProbe/grpc",schemaPath:"liveness-probe.schema.json/properties/grpc/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5}};
if(vErrors === null){
vErrors = [err101];
}
else {
vErrors.push(err101);
}
errors++;
}
}
if(data51.host !== undefined){
let data52 = data51.host;
if(typeof data52 === "string"){
if(data52.length > 253 && func2(data52) > 253){
const err102 = {instancePath:instancePath+"/spec/livenessProbe/grpc/host",schemaPath:"liveness-probe.schema.json/properties/grpc/properties/host/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err102];
}
else {
vErrors.push(err102);
}
errors++;
}
}
else {
const err103 = {instancePath:instancePath+"/spec/livenessProbe/grpc/host",schemaPath:"liveness-probe.schema.json/properties/grpc/properties/host/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err103];
}
else {
vErrors.push(err103);
}
errors++;
}
}
if(data51.port !== undefined){
let data53 = data51.port;
if(!(((typeof data53 == "number") && (!(data53 % 1) && !isNaN(data53))) && (isFinite(data53)))){
const err104 = {instancePath:instancePath+"/spec/livenessProbe/grpc/port",schemaPath:"liveness-probe.schema.json/properties/grpc/properties/port/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err104];
}
else {
vErrors.push(err104);
}
errors++;
}
if((typeof data53 == "number") && (isFinite(data53))){
if(!(formats2.validate(data53))){
const err105 = {instancePath:instancePath+"/spec/livenessProbe/grpc/port",schemaPath:"liveness-probe.schema.json/properties/grpc/properties/port/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err105];
}
else {
vErrors.push(err105);
}
errors++;
}
}
}
if(data51.service !== undefined){
let data54 = data51.service;
if(typeof data54 === "string"){
if(data54.length > 256 && func2(data54) > 256){
const err106 = {instancePath:instancePath+"/spec/livenessProbe/grpc/service",schemaPath:"liveness-probe.schema.json/properties/grpc/properties/service/maxLength",keyword:"maxLength",params:{limit: 256}};
if(vErrors === null){
vErrors = [err106];
}
else {
vErrors.push(err106);
}
errors++;
}
}
else {
const err107 = {instancePath:instancePath+"/spec/livenessProbe/grpc/service",schemaPath:"liveness-probe.schema.json/properties/grpc/properties/service/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err107];
}
else {
vErrors.push(err107);
}
errors++;
}
}
}
else {
const err108 = {instancePath:instancePath+"/spec/livenessProbe/grpc",schemaPath:"liveness-probe.schema.json/properties/grpc/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err108];
}
else {
vErrors.push(err108);
}
errors++;
}
}
if(data36.apiServer !== undefined){
let data55 = data36.apiServer;
if(data55 && typeof data55 == "object" && !Array.isArray(data55)){
for(const key6 in data55){
if(!(((key6 === "path") || (key6 === "minReadyNodes")) || (key6 === "minReadyPods"))){
const err109 = {instancePath:instancePath+"/spec/livenessProbe/apiServer",schemaPath:"liveness-probe.schema.json/properties/apiServer/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6}};
if(vErrors === null){
vErrors = [err109];
}
else {
vErrors.push(err109);
}
errors++;
}
}
if(data55.path !== undefined){
let data56 = data55.path;
if(typeof data56 === "string"){
if(data56.length > 2048 && func2(data56) > 2048){
const err110 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/path",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/path/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err110];
}
else {
vErrors.push(err110);
}
errors++;
}
}
else {
const err111 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/path",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/path/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err111];
}
else {
vErrors.push(err111);
}
errors++;
}
}
if(data55.minReadyNodes !== undefined){
let data57 = data55.minReadyNodes;
if(!(((typeof data57 == "number") && (!(data57 % 1) && !isNaN(data57))) && (isFinite(data57)))){
const err112 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/minReadyNodes",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/minReadyNodes/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err112];
}
else {
vErrors.push(err112);
}
errors++;
}
if((typeof data57 == "number") && (isFinite(data57))){
if(data57 < 0 || isNaN(data57)){
const err113 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/minReadyNodes",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/minReadyNodes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err113];
}
else {
vErrors.push(err113);
}
errors++;
}
if(!(formats2.validate(data57))){
const err114 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/minReadyNodes",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/minReadyNodes/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err114];
}
else {
vErrors.push(err114);
}
errors++;
}
}
}
if(data55.minReadyPods !== undefined){
let data58 = data55.minReadyPods;
if(!(((typeof data58 == "number") && (!(data58 % 1) && !isNaN(data58))) && (isFinite(data58)))){
const err115 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/minReadyPods",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/minReadyPods/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err115];
}
else {
vErrors.push(err115);
}
errors++;
}
if((typeof data58 == "number") && (isFinite(data58))){
if(data58 < 0 || isNaN(data58)){
const err116 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/minReadyPods",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/minReadyPods/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err116];
}
else {
vErrors.push(err116);
}
errors++;
}
if(!(formats2.validate(data58))){
const err117 = {instancePath:instancePath+"/spec/livenessProbe/apiServer/minReadyPods",schemaPath:"liveness-probe.schema.json/properties/apiServer/properties/minReadyPods/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err117];
}
else {
vErrors.push(err117);
}
errors++;
}
}
}
}
else {
const err118 = {instancePath:instancePath+"/spec/livenessProbe/apiServer",schemaPath:"liveness-probe.schema.json/properties/apiServer/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err118];
}
else {
vErrors.push(err118);
}
errors++;
}
}
if(data36.initialDelaySeconds !== undefined){
let data59 = data36.initialDelaySeconds;
if(!(((typeof data59 == "number") && (!(data59 % 1) && !isNaN(data59))) && (isFinite(data59)))){
const err119 = {instancePath:instancePath+"/spec/livenessProbe/initialDelaySeconds",schemaPath:"liveness-probe.schema.json/properties/initialDelaySeconds/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err119];
}
else {
vErrors.push(err119);
}
errors++;
}
if((typeof data59 == "number") && (isFinite(data59))){
if(data59 < 0 || isNaN(data59)){
const err120 = {instancePath:instancePath+"/spec/livenessProbe/initialDelaySeconds",schemaPath:"liveness-probe.schema.json/properties/initialDelaySeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err120];
}
else {
vErrors.push(err120);
}
errors++;
}
if(!(formats2.validate(data59))){
const err121 = {instancePath:instancePath+"/spec/livenessProbe/initialDelaySeconds",schemaPath:"liveness-probe.schema.json/properties/initialDelaySeconds/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err121];
}
else {
vErrors.push(err121);
}
errors++;
}
}
}
if(data36.timeoutSeconds !== undefined){
let data60 = data36.timeoutSeconds;
if(!(((typeof data60 == "number") && (!(data60 % 1) && !isNaN(data60))) && (isFinite(data60)))){
const err122 = {instancePath:instancePath+"/spec/livenessProbe/timeoutSeconds",schemaPath:"liveness-probe.schema.json/properties/timeoutSeconds/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err122];
}
else {
vErrors.push(err122);
}
errors++;
}
if((typeof data60 == "number") && (isFinite(data60))){
if(data60 < 1 || isNaN(data60)){
const err123 = {instancePath:instancePath+"/spec/livenessProbe/timeoutSeconds",schemaPath:"liveness-probe.schema.json/properties/timeoutSeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err123];
}
else {
vErrors.push(err123);
}
errors++;
}
if(!(formats2.validate(data60))){
const err124 = {instancePath:instancePath+"/spec/livenessProbe/timeoutSeconds",schemaPath:"liveness-probe.schema.json/properties/timeoutSeconds/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err124];
}
else {
vErrors.push(err124);
}
errors++;
}
}
}
if(data36.periodSeconds !== undefined){
let data61 = data36.periodSeconds;
if(!(((typeof data61 == "number") && (!(data61 % 1) && !isNaN(data61))) && (isFinite(data61)))){
const err125 = {instancePath:instancePath+"/spec/livenessProbe/periodSeconds",schemaPath:"liveness-probe.schema.json/properties/periodSeconds/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err125];
}
else {
vErrors.push(err125);
}
errors++;
}
if((typeof data61 == "number") && (isFinite(data61))){
if(data61 < 1 || isNaN(data61)){
const err126 = {instancePath:instancePath+"/spec/livenessProbe/periodSeconds",schemaPath:"liveness-probe.schema.json/properties/periodSeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err126];
}
else {
vErrors.push(err126);
}
errors++;
}
if(!(formats2.validate(data61))){
const err127 = {instancePath:instancePath+"/spec/livenessProbe/periodSeconds",schemaPath:"liveness-probe.schema.json/properties/periodSeconds/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err127];
}
else {
vErrors.push(err127);
}
errors++;
}
}
}
if(data36.successThreshold !== undefined){
let data62 = data36.successThreshold;
if(!(((typeof data62 == "number") && (!(data62 % 1) && !isNaN(data62))) && (isFinite(data62)))){
const err128 = {instancePath:instancePath+"/spec/livenessProbe/successThreshold",schemaPath:"liveness-probe.schema.json/properties/successThreshold/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err128];
}
else {
vErrors.push(err128);
}
errors++;
}
if((typeof data62 == "number") && (isFinite(data62))){
if(data62 < 1 || isNaN(data62)){
const err129 = {instancePath:instancePath+"/spec/livenessProbe/successThreshold",schemaPath:"liveness-probe.schema.json/properties/successThreshold/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err129];
}
else {
vErrors.push(err129);
}
errors++;
}
if(!(formats2.validate(data62))){
const err130 = {instancePath:instancePath+"/spec/livenessProbe/successThreshold",schemaPath:"liveness-probe.schema.json/properties/successThreshold/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err130];
}
else {
vErrors.push(err130);
}
errors++;
}
}
}
if(data36.failureThreshold !== undefined){
let data63 = data36.failureThreshold;
if(!(((typeof data63 == "number") && (!(data63 % 1) && !isNaN(data63))) && (isFinite(data63)))){
const err131 = {instancePath:instancePath+"/spec/livenessProbe/failureThreshold",schemaPath:"liveness-probe.schema.json/properties/failureThreshold/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err131];
}
else {
vErrors.push(err131);
}
errors++;
}
if((typeof data63 == "number") && (isFinite(data63))){
if(data63 < 1 || isNaN(data63)){
const err132 = {instancePath:instancePath+"/spec/livenessProbe/failureThreshold",schemaPath:"liveness-probe.schema.json/properties/failureThreshold/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err132];
}
else {
vErrors.push(err132);
}
errors++;
}
if(!(formats2.validate(data63))){
const err133 = {instancePath:instancePath+"/spec/livenessProbe/failureThreshold",schemaPath:"liveness-probe.schema.json/properties/failureThreshold/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err133];
}
else {
vErrors.push(err133);
}
errors++;
}
}
}
}
else {
const err134 = {instancePath:instancePath+"/spec/livenessProbe",schemaPath:"liveness-probe.schema.json/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err134];
}
else {
vErrors.push(err134);
}
errors++;
}
}
}
else {
const err135 = {instancePath:instancePath+"/spec",schemaPath:"#/properties/spec/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err135];
}
else {
vErrors.push(err135);
}
errors++;
}
}
if(data.status !== undefined){
let data64 = data.status;
if(data64 && typeof data64 == "object" && !Array.isArray(data64)){
if(data64.kubernetesVersion !== undefined){
let data65 = data64.kubernetesVersion;
if(typeof data65 === "string"){
if(data65.length > 256 && func2(data65) > 256){
const err136 = {instancePath:instancePath+"/status/kubernetesVersion",schemaPath:"#/properties/status/properties/kubernetesVersion/maxLength",keyword:"maxLength",params:{limit: 256}};
if(vErrors === null){
vErrors = [err136];
}
else {
vErrors.push(err136);
}
errors++;
}
}
else {
const err137 = {instancePath:instancePath+"/status/kubernetesVersion",schemaPath:"#/properties/status/properties/kubernetesVersion/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err137];
}
else {
vErrors.push(err137);
}
errors++;
}
}
if(data64.apiEnablements !== undefined){
let data66 = data64.apiEnablements;
if(Array.isArray(data66)){
const len5 = data66.length;
for(let i5=0; i5<len5; i5++){
let data67 = data66[i5];
if(!(data67 && typeof data67 == "object" && !Array.isArray(data67))){
const err138 = {instancePath:instancePath+"/status/apiEnablements/" + i5,schemaPath:"#/properties/status/properties/apiEnablements/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err138];
}
else {
vErrors.push(err138);
}
errors++;
}
}
}
else {
const err139 = {instancePath:instancePath+"/status/apiEnablements",schemaPath:"#/properties/status/properties/apiEnablements/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err139];
}
else {
vErrors.push(err139);
}
errors++;
}
}
if(data64.conditions !== undefined){
let data68 = data64.conditions;
if(Array.isArray(data68)){
const len6 = data68.length;
for(let i6=0; i6<len6; i6++){
let data69 = data68[i6];
if(data69 && typeof data69 == "object" && !Array.isArray(data69)){
if(data69.type === undefined){
const err140 = {instancePath:instancePath+"/status/conditions/" + i6,schemaPath:"#/properties/status/properties/conditions/items/required",keyword:"required",params:{missingProperty: "type"}};
if(vErrors === null){
vErrors = [err140];
}
else {
vErrors.push(err140);
}
errors++;
}
if(data69.status === undefined){
const err141 = {instancePath:instancePath+"/status/conditions/" + i6,schemaPath:"#/properties/status/properties/conditions/items/required",keyword:"required",params:{missingProperty: "status"}};
if(vErrors === null){
vErrors = [err141];
}
else {
vErrors.push(err141);
}
errors++;
}
if(data69.lastTransitionTime === undefined){
const err142 = {instancePath:instancePath+"/status/conditions/" + i6,schemaPath:"#/properties/status/properties/conditions/items/required",keyword:"required",params:{missingProperty: "lastTransitionTime"}};
if(vErrors === null){
vErrors = [err142];
}
else {
vErrors.push(err142);
}
errors++;
}
if(data69.reason === undefined){
const err143 = {instancePath:instancePath+"/status/conditions/" + i6,schemaPath:"#/properties/status/properties/conditions/items/required",keyword:"required",params:{missingProperty: "reason"}};
if(vErrors === null){
vErrors = [err143];
}
else {
vErrors.push(err143);
}
errors++;
}
if(data69.message === undefined){
const err144 = {instancePath:instancePath+"/status/conditions/" + i6,schemaPath:"#/properties/status/properties/conditions/items/required",keyword:"required",params:{missingProperty: "message"}};
if(vErrors === null){
vErrors = [err144];
}
else {
vErrors.push(err144);
}
errors++;
}
if(data69.type !== undefined){
let data70 = data69.type;
if(typeof data70 === "string"){
if(data70.length > 316 && func2(data70) > 316){
const err145 = {instancePath:instancePath+"/status/conditions/" + i6+"/type",schemaPath:"#/properties/status/properties/conditions/items/properties/type/maxLength",keyword:"maxLength",params:{limit: 316}};
if(vErrors === null){
vErrors = [err145];
}
else {
vErrors.push(err145);
}
errors++;
}
}
else {
const err146 = {instancePath:instancePath+"/status/conditions/" + i6+"/type",schemaPath:"#/properties/status/properties/conditions/items/properties/type/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err146];
}
else {
vErrors.push(err146);
}
errors++;
}
}
if(data69.status !== undefined){
let data71 = data69.status;
if(typeof data71 !== "string"){
const err147 = {instancePath:instancePath+"/status/conditions/" + i6+"/status",schemaPath:"#/properties/status/properties/conditions/items/properties/status/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err147];
}
else {
vErrors.push(err147);
}
errors++;
}
if(!(((data71 === "True") || (data71 === "False")) || (data71 === "Unknown"))){
const err148 = {instancePath:instancePath+"/status/conditions/" + i6+"/status",schemaPath:"#/properties/status/properties/conditions/items/properties/status/enum",keyword:"enum",params:{allowedValues: schema11.properties.status.properties.conditions.items.properties.status.enum}};
if(vErrors === null){
vErrors = [err148];
}
else {
vErrors.push(err148);
}
errors++;
}
}
if(data69.observedGeneration !== undefined){
let data72 = data69.observedGeneration;
if(!(((typeof data72 == "number") && (!(data72 % 1) && !isNaN(data72))) && (isFinite(data72)))){
const err149 = {instancePath:instancePath+"/status/conditions/" + i6+"/observedGeneration",schemaPath:"#/properties/status/properties/conditions/items/properties/observedGeneration/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err149];
}
else {
vErrors.push(err149);
}
errors++;
}
if((typeof data72 == "number") && (isFinite(data72))){
if(data72 < 0 || isNaN(data72)){
const err150 = {instancePath:instancePath+"/status/conditions/" + i6+"/observedGeneration",schemaPath:"#/properties/status/properties/conditions/items/properties/observedGeneration/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err150];
}
else {
vErrors.push(err150);
}
errors++;
}
if(!(formats18.validate(data72))){
const err151 = {instancePath:instancePath+"/status/conditions/" + i6+"/observedGeneration",schemaPath:"#/properties/status/properties/conditions/items/properties/observedGeneration/format",keyword:"format",params:{format: "int64"}};
if(vErrors === null){
vErrors = [err151];
}
else {
vErrors.push(err151);
}
errors++;
}
}
}
if(data69.lastTransitionTime !== undefined){
let data73 = data69.lastTransitionTime;
if(typeof data73 === "string"){
if(!(formats0.validate(data73))){
const err152 = {instancePath:instancePath+"/status/conditions/" + i6+"/lastTransitionTime",schemaPath:"#/properties/status/properties/conditions/items/properties/lastTransitionTime/format",keyword:"format",params:{format: "date-time"}};
if(vErrors === null){
vErrors = [err152];
}
else {
vErrors.push(err152);
}
errors++;
}
if(data73.length > 64 && func2(data73) > 64){
const err153 = {instancePath:instancePath+"/status/conditions/" + i6+"/lastTransitionTime",schemaPath:"#/properties/status/properties/conditions/items/properties/lastTransitionTime/maxLength",keyword:"maxLength",params:{limit: 64}};
if(vErrors === null){
vErrors = [err153];
}
else {
vErrors.push(err153);
}
errors++;
}
}
else {
const err154 = {instancePath:instancePath+"/status/conditions/" + i6+"/lastTransitionTime",schemaPath:"#/properties/status/properties/conditions/items/properties/lastTransitionTime/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err154];
}
else {
vErrors.push(err154);
}
errors++;
}
}
if(data69.reason !== undefined){
let data74 = data69.reason;
if(typeof data74 === "string"){
if(data74.length > 1024 && func2(data74) > 1024){
const err155 = {instancePath:instancePath+"/status/conditions/" + i6+"/reason",schemaPath:"#/properties/status/properties/conditions/items/properties/reason/maxLength",keyword:"maxLength",params:{limit: 1024}};
if(vErrors === null){
vErrors = [err155];
}
else {
vErrors.push(err155);
}
errors++;
}
}
else {
const err156 = {instancePath:instancePath+"/status/conditions/" + i6+"/reason",schemaPath:"#/properties/status/properties/conditions/items/properties/reason/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err156];
}
else {
vErrors.push(err156);
}
errors++;
}
}
if(data69.message !== undefined){
let data75 = data69.message;
if(typeof data75 === "string"){
if(data75.length > 32768 && func2(data75) > 32768){
const err157 = {instancePath:instancePath+"/status/conditions/" + i6+"/message",schemaPath:"#/properties/status/properties/conditions/items/properties/message/maxLength",keyword:"maxLength",params:{limit: 32768}};
if(vErrors === null){
vErrors = [err157];
}
else {
vErrors.push(err157);
}
errors++;
}
}
else {
const err158 = {instancePath:instancePath+"/status/conditions/" + i6+"/message",schemaPath:"#/properties/status/properties/conditions/items/properties/message/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err158];
}
else {
vErrors.push(err158);
}
errors++;
}
}
}
else {
const err159 = {instancePath:instancePath+"/status/conditions/" + i6,schemaPath:"#/properties/status/properties/conditions/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err159];
}
else {
vErrors.push(err159);
}
errors++;
}
}
if(!func39(schema13, data68)){
const err160 = {instancePath:instancePath+"/status/conditions",schemaPath:"#/properties/status/properties/conditions/x-kubernetes-list-map-keys",keyword:"x-kubernetes-list-map-keys",params:{}};
if(vErrors === null){
vErrors = [err160];
}
else {
vErrors.push(err160);
}
errors++;
}
}
else {
const err161 = {instancePath:instancePath+"/status/conditions",schemaPath:"#/properties/status/properties/conditions/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err161];
}
else {
vErrors.push(err161);
}
errors++;
}
}
if(data64.nodeSummary !== undefined){
let data76 = data64.nodeSummary;
if(!(data76 && typeof data76 == "object" && !Array.isArray(data76))){
const err162 = {instancePath:instancePath+"/status/nodeSummary",schemaPath:"#/properties/status/properties/nodeSummary/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err162];
}
else {
vErrors.push(err162);
}
errors++;
}
}
if(data64.resourceSummary !== undefined){
let data77 = data64.resourceSummary;
if(!(data77 && typeof data77 == "object" && !Array.isArray(data77))){
const err163 = {instancePath:instancePath+"/status/resourceSummary",schemaPath:"#/properties/status/properties/resourceSummary/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err163];
}
else {
vErrors.push(err163);
}
errors++;
}
}
if(data64.remedyActions !== undefined){
let data78 = data64.remedyActions;
if(Array.isArray(data78)){
const len7 = data78.length;
for(let i7=0; i7<len7; i7++){
let data79 = data78[i7];
if(typeof data79 === "string"){
if(data79.length > 256 && func2(data79) > 256){
const err164 = {instancePath:instancePath+"/status/remedyActions/" + i7,schemaPath:"#/properties/status/properties/remedyActions/items/maxLength",keyword:"maxLength",params:{limit: 256}};
if(vErrors === null){
vErrors = [err164];
}
else {
vErrors.push(err164);
}
errors++;
}
}
else {
const err165 = {instancePath:instancePath+"/status/remedyActions/" + i7,schemaPath:"#/properties/status/properties/remedyActions/items/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err165];
}
else {
vErrors.push(err165);
}
errors++;
}
}
}
else {
const err166 = {instancePath:instancePath+"/status/remedyActions",schemaPath:"#/properties/status/properties/remedyActions/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err166];
}
else {
vErrors.push(err166);
}
errors++;
}
}
}
else {
const err167 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err167];
}
else {
vErrors.push(err167);
}
errors++;
}
}
}
else {
const err168 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err168];
}
else {
vErrors.push(err168);
}
errors++;
}
validate10.errors = vErrors;
return errors === 0;
}

exports.livenessProbe = validate11;

function validate11(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="liveness-probe.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(func22.call(schema12.properties, key0))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0}};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.httpGet !== undefined){
let data0 = data.httpGet;
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.port === undefined){
const err1 = {instancePath:instancePath+"/httpGet",schemaPath:"#/properties/httpGet/required",keyword:"required",params:{missingProperty: "port"}};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key1 in data0){
if(!(((((((key1 === "scheme") || (key1 === "host")) || (key1 === "port")) || (key1 === "path")) || (key1 === "httpHeaders")) || (key1 === "caBundle")) || (key1 === "insecureSkipTLSVerify"))){
const err2 = {instancePath:instancePath+"/httpGet",schemaPath:"#/properties/httpGet/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1}};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data0.scheme !== undefined){
let data1 = data0.scheme;
if(typeof data1 !== "string"){
const err3 = {instancePath:instancePath+"/httpGet/scheme",schemaPath:"#/properties/httpGet/properties/scheme/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!((data1 === "HTTP") || (data1 === "HTTPS"))){
const err4 = {instancePath:instancePath+"/httpGet/scheme",schemaPath:"#/properties/httpGet/properties/scheme/enum",keyword:"enum",params:{allowedValues: schema12.properties.httpGet.properties.scheme.enum}};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data0.host !== undefined){
let data2 = data0.host;
if(typeof data2 === "string"){
if(data2.length > 253 && func2(data2) > 253){
const err5 = {instancePath:instancePath+"/httpGet/host",schemaPath:"#/properties/httpGet/properties/host/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/httpGet/host",schemaPath:"#/properties/httpGet/properties/host/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data0.port !== undefined){
if(!func20(data0.port)){
const err7 = {instancePath:instancePath+"/httpGet/port",schemaPath:"#/properties/httpGet/properties/port/x-kubernetes-int-or-string",keyword:"x-kubernetes-int-or-string",params:{}};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data0.path !== undefined){
let data4 = data0.path;
if(typeof data4 === "string"){
if(data4.length > 2048 && func2(data4) > 2048){
const err8 = {instancePath:instancePath+"/httpGet/path",schemaPath:"#/properties/httpGet/properties/path/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/httpGet/path",schemaPath:"#/properties/httpGet/properties/path/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data0.httpHeaders !== undefined){
let data5 = data0.httpHeaders;
if(Array.isArray(data5)){
if(data5.length > 32){
const err10 = {instancePath:instancePath+"/httpGet/httpHeaders",schemaPath:"#/properties/httpGet/properties/httpHeaders/maxItems",keyword:"maxItems",params:{limit: 32}};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.name === undefined){
const err11 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0,schemaPath:"#/properties/httpGet/properties/httpHeaders/items/required",keyword:"required",params:{missingProperty: "name"}};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data6.value === undefined){
const err12 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0,schemaPath:"#/properties/httpGet/properties/httpHeaders/items/required",keyword:"required",params:{missingProperty: "value"}};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
for(const key2 in data6){
if(!((key2 === "name") || (key2 === "value"))){
const err13 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0,schemaPath:"#/properties/httpGet/properties/httpHeaders/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2}};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data6.name !== undefined){
let data7 = data6.name;
if(typeof data7 === "string"){
if(data7.length > 256 && func2(data7) > 256){
const err14 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0+"/name",schemaPath:"#/properties/httpGet/properties/httpHeaders/items/properties/name/maxLength",keyword:"maxLength",params:{limit: 256}};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0+"/name",schemaPath:"#/properties/httpGet/properties/httpHeaders/items/properties/name/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data6.value !== undefined){
let data8 = data6.value;
if(typeof data8 === "string"){
if(data8.length > 4096 && func2(data8) > 4096){
const err16 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0+"/value",schemaPath:"#/properties/httpGet/properties/httpHeaders/items/properties/value/maxLength",keyword:"maxLength",params:{limit: 4096}};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0+"/value",schemaPath:"#/properties/httpGet/properties/httpHeaders/items/properties/value/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/httpGet/httpHeaders/" + i0,schemaPath:"#/properties/httpGet/properties/httpHeaders/items/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/httpGet/httpHeaders",schemaPath:"#/properties/httpGet/properties/httpHeaders/type",keyword:"type",params:{type: "array"}};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data0.caBundle !== undefined){
let data9 = data0.caBundle;
if(typeof data9 === "string"){
if(data9.length > 65536 && func2(data9) > 65536){
const err20 = {instancePath:instancePath+"/httpGet/caBundle",schemaPath:"#/properties/httpGet/properties/caBundle/maxLength",keyword:"maxLength",params:{limit: 65536}};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/httpGet/caBundle",schemaPath:"#/properties/httpGet/properties/caBundle/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data0.insecureSkipTLSVerify !== undefined){
if(typeof data0.insecureSkipTLSVerify !== "boolean"){
const err22 = {instancePath:instancePath+"/httpGet/insecureSkipTLSVerify",schemaPath:"#/properties/httpGet/properties/insecureSkipTLSVerify/type",keyword:"type",params:{type: "boolean"}};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/httpGet",schemaPath:"#/properties/httpGet/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.tcpSocket !== undefined){
let data11 = data.tcpSocket;
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
if(data11.port === undefined){
const err24 = {instancePath:instancePath+"/tcpSocket",schemaPath:"#/properties/tcpSocket/required",keyword:"required",params:{missingProperty: "port"}};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
for(const key3 in data11){
if(!((key3 === "host") || (key3 === "port"))){
const err25 = {instancePath:instancePath+"/tcpSocket",schemaPath:"#/properties/tcpSocket/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3}};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data11.host !== undefined){
let data12 = data11.host;
if(typeof data12 === "string"){
if(data12.length > 253 && func2(data12) > 253){
const err26 = {instancePath:instancePath+"/tcpSocket/host",schemaPath:"#/properties/tcpSocket/properties/host/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/tcpSocket/host",schemaPath:"#/properties/tcpSocket/properties/host/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data11.port !== undefined){
if(!func20(data11.port)){
const err28 = {instancePath:instancePath+"/tcpSocket/port",schemaPath:"#/properties/tcpSocket/properties/port/x-kubernetes-int-or-string",keyword:"x-kubernetes-int-or-string",params:{}};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
}
else {
const err29 = {instancePath:instancePath+"/tcpSocket",schemaPath:"#/properties/tcpSocket/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.grpc !== undefined){
let data14 = data.grpc;
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
if(data14.port === undefined){
const err30 = {instancePath:instancePath+"/grpc",schemaPath:"#/properties/grpc/required",keyword:"required",params:{missingProperty: "port"}};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
for(const key4 in data14){
if(!(((key4 === "host") || (key4 === "port")) || (key4 === "service"))){
const err31 = {instancePath:instancePath+"/grpc",schemaPath:"#/properties/grpc/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4}};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
if(data14.host !== undefined){
let data15 = data14.host;
if(typeof data15 === "string"){
if(data15.length > 253 && func2(data15) > 253){
const err32 = {instancePath:instancePath+"/grpc/host",schemaPath:"#/properties/grpc/properties/host/maxLength",keyword:"maxLength",params:{limit: 253}};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
else {
const err33 = {instancePath:instancePath+"/grpc/host",schemaPath:"#/properties/grpc/properties/host/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data14.port !== undefined){
let data16 = data14.port;
if(!(((typeof data16 == "number") && (!(data16 % 1) && !isNaN(data16))) && (isFinite(data16)))){
const err34 = {instancePath:instancePath+"/grpc/port",schemaPath:"#/properties/grpc/properties/port/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
if((typeof data16 == "number") && (isFinite(data16))){
if(!(formats2.validate(data16))){
const err35 = {instancePath:instancePath+"/grpc/port",schemaPath:"#/properties/grpc/properties/port/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
}
if(data14.service !== undefined){
let data17 = data14.service;
if(typeof data17 === "string"){
if(data17.length > 256 && func2(data17) > 256){
const err36 = {instancePath:instancePath+"/grpc/service",schemaPath:"#/properties/grpc/properties/service/maxLength",keyword:"maxLength",params:{limit: 256}};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
else {
const err37 = {instancePath:instancePath+"/grpc/service",schemaPath:"#/properties/grpc/properties/service/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
}
else {
const err38 = {instancePath:instancePath+"/grpc",schemaPath:"#/properties/grpc/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data.apiServer !== undefined){
let data18 = data.apiServer;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
for(const key5 in data18){
if(!(((key5 === "path") || (key5 === "minReadyNodes")) || (key5 === "minReadyPods"))){
const err39 = {instancePath:instancePath+"/apiServer",schemaPath:"#/properties/apiServer/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5}};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
if(data18.path !== undefined){
let data19 = data18.path;
if(typeof data19 === "string"){
if(data19.length > 2048 && func2(data19) > 2048){
const err40 = {instancePath:instancePath+"/apiServer/path",schemaPath:"#/properties/apiServer/properties/path/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
else {
const err41 = {instancePath:instancePath+"/apiServer/path",schemaPath:"#/properties/apiServer/properties/path/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
if(data18.minReadyNodes !== undefined){
let data20 = data18.minReadyNodes;
if(!(((typeof data20 == "number") && (!(data20 % 1) && !isNaN(data20))) && (isFinite(data20)))){
const err42 = {instancePath:instancePath+"/apiServer/minReadyNodes",schemaPath:"#/properties/apiServer/properties/minReadyNodes/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
if((typeof data20 == "number") && (isFinite(data20))){
if(data20 < 0 || isNaN(data20)){
const err43 = {instancePath:instancePath+"/apiServer/minReadyNodes",schemaPath:"#/properties/apiServer/properties/minReadyNodes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
if(!(formats2.validate(data20))){
const err44 = {instancePath:instancePath+"/apiServer/minReadyNodes",schemaPath:"#/properties/apiServer/properties/minReadyNodes/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
}
if(data18.minReadyPods !== undefined){
let data21 = data18.minReadyPods;
if(!(((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21))) && (isFinite(data21)))){
const err45 = {instancePath:instancePath+"/apiServer/minReadyPods",schemaPath:"#/properties/apiServer/properties/minReadyPods/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
if((typeof data21 == "number") && (isFinite(data21))){
if(data21 < 0 || isNaN(data21)){
const err46 = {instancePath:instancePath+"/apiServer/minReadyPods",schemaPath:"#/properties/apiServer/properties/minReadyPods/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
if(!(formats2.validate(data21))){
const err47 = {instancePath:instancePath+"/apiServer/minReadyPods",schemaPath:"#/properties/apiServer/properties/minReadyPods/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
}
}
else {
const err48 = {instancePath:instancePath+"/apiServer",schemaPath:"#/properties/apiServer/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
if(data.initialDelaySeconds !== undefined){
let data22 = data.initialDelaySeconds;
if(!(((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22))) && (isFinite(data22)))){
const err49 = {instancePath:instancePath+"/initialDelaySeconds",schemaPath:"#/properties/initialDelaySeconds/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
if((typeof data22 == "number") && (isFinite(data22))){
if(data22 < 0 || isNaN(data22)){
const err50 = {instancePath:instancePath+"/initialDelaySeconds",schemaPath:"#/properties/initialDelaySeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0}};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
if(!(formats2.validate(data22))){
const err51 = {instancePath:instancePath+"/initialDelaySeconds",schemaPath:"#/properties/initialDelaySeconds/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
}
if(data.timeoutSeconds !== undefined){
let data23 = data.timeoutSeconds;
if(!(((typeof data23 == "number") && (!(data23 % 1) && !isNaN(data23))) && (isFinite(data23)))){
const err52 = {instancePath:instancePath+"/timeoutSeconds",schemaPath:"#/properties/timeoutSeconds/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
if((typeof data23 == "number") && (isFinite(data23))){
if(data23 < 1 || isNaN(data23)){
const err53 = {instancePath:instancePath+"/timeoutSeconds",schemaPath:"#/properties/timeoutSeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
if(!(formats2.validate(data23))){
const err54 = {instancePath:instancePath+"/timeoutSeconds",schemaPath:"#/properties/timeoutSeconds/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
}
}
if(data.periodSeconds !== undefined){
let data24 = data.periodSeconds;
if(!(((typeof data24 == "number") && (!(data24 % 1) && !isNaN(data24))) && (isFinite(data24)))){
const err55 = {instancePath:instancePath+"/periodSeconds",schemaPath:"#/properties/periodSeconds/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
if((typeof data24 == "number") && (isFinite(data24))){
if(data24 < 1 || isNaN(data24)){
const err56 = {instancePath:instancePath+"/periodSeconds",schemaPath:"#/properties/periodSeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
if(!(formats2.validate(data24))){
const err57 = {instancePath:instancePath+"/periodSeconds",schemaPath:"#/properties/periodSeconds/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
}
if(data.successThreshold !== undefined){
let data25 = data.successThreshold;
if(!(((typeof data25 == "number") && (!(data25 % 1) && !isNaN(data25))) && (isFinite(data25)))){
const err58 = {instancePath:instancePath+"/successThreshold",schemaPath:"#/properties/successThreshold/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
if((typeof data25 == "number") && (isFinite(data25))){
if(data25 < 1 || isNaN(data25)){
const err59 = {instancePath:instancePath+"/successThreshold",schemaPath:"#/properties/successThreshold/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
if(!(formats2.validate(data25))){
const err60 = {instancePath:instancePath+"/successThreshold",schemaPath:"#/properties/successThreshold/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
}
if(data.failureThreshold !== undefined){
let data26 = data.failureThreshold;
if(!(((typeof data26 == "number") && (!(data26 % 1) && !isNaN(data26))) && (isFinite(data26)))){
const err61 = {instancePath:instancePath+"/failureThreshold",schemaPath:"#/properties/failureThreshold/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
if((typeof data26 == "number") && (isFinite(data26))){
if(data26 < 1 || isNaN(data26)){
const err62 = {instancePath:instancePath+"/failureThreshold",schemaPath:"#/properties/failureThreshold/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1}};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
if(!(formats2.validate(data26))){
const err63 = {instancePath:instancePath+"/failureThreshold",schemaPath:"#/properties/failureThreshold/format",keyword:"format",params:{format: "int32"}};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
}
}
else {
const err64 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
validate11.errors = vErrors;
return errors === 0;
}

exports.healthChecker = validate12;
const schema15 = {"$id":"health-checker-annotation.schema.json","title":"HealthCheckerAnnotation","description":"The legacy annotation cluster.karmada.io/health-checker: a webhook-style client config naming an external probe service. Migrated into spec.livenessProbe.httpGet.","type":"object","additionalProperties":false,"properties":{"service":{"title":"HealthCheckerService","description":"A Service that answers the probe; reached at https://<name>.<namespace>.svc:<port><path>.","type":"object","additionalProperties":false,"required":["namespace","name"],"properties":{"namespace":{"description":"Namespace of the Service.","type":"string","maxLength":63},"name":{"description":"Name of the Service.","type":"string","maxLength":63},"port":{"description":"Port of the Service; defaults to 443.","type":"integer"},"path":{"description":"Path to request; defaults to '/'.","type":"string","maxLength":2048}}},"url":{"description":"A URL to GET instead of a Service: scheme://host[:port][/path].","type":"string","maxLength":2048},"caBundle":{"description":"Base64-encoded PEM bundle that verifies the server's certificate.","type":"string","maxLength":65536}}};

function validate12(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="health-checker-annotation.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((key0 === "service") || (key0 === "url")) || (key0 === "caBundle"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0}};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.service !== undefined){
let data0 = data.service;
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.namespace === undefined){
const err1 = {instancePath:instancePath+"/service",schemaPath:"#/properties/service/required",keyword:"required",params:{missingProperty: "namespace"}};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data0.name === undefined){
const err2 = {instancePath:instancePath+"/service",schemaPath:"#/properties/service/required",keyword:"required",params:{missingProperty: "name"}};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key1 in data0){
if(!((((key1 === "namespace") || (key1 === "name")) || (key1 === "port")) || (key1 === "path"))){
const err3 = {instancePath:instancePath+"/service",schemaPath:"#/properties/service/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1}};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data0.namespace !== undefined){
let data1 = data0.namespace;
if(typeof data1 === "string"){
if(data1.length > 63 && func2(data1) > 63){
const err4 = {instancePath:instancePath+"/service/namespace",schemaPath:"#/properties/service/properties/namespace/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/service/namespace",schemaPath:"#/properties/service/properties/namespace/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data0.name !== undefined){
let data2 = data0.name;
if(typeof data2 === "string"){
if(data2.length > 63 && func2(data2) > 63){
const err6 = {instancePath:instancePath+"/service/name",schemaPath:"#/properties/service/properties/name/maxLength",keyword:"maxLength",params:{limit: 63}};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/service/name",schemaPath:"#/properties/service/properties/name/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data0.port !== undefined){
let data3 = data0.port;
if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){
const err8 = {instancePath:instancePath+"/service/port",schemaPath:"#/properties/service/properties/port/type",keyword:"type",params:{type: "integer"}};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data0.path !== undefined){
let data4 = data0.path;
if(typeof data4 === "string"){
if(data4.length > 2048 && func2(data4) > 2048){
const err9 = {instancePath:instancePath+"/service/path",schemaPath:"#/properties/service/properties/path/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/service/path",schemaPath:"#/properties/service/properties/path/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/service",schemaPath:"#/properties/service/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.url !== undefined){
let data5 = data.url;
if(typeof data5 === "string"){
if(data5.length > 2048 && func2(data5) > 2048){
const err12 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/maxLength",keyword:"maxLength",params:{limit: 2048}};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.caBundle !== undefined){
let data6 = data.caBundle;
if(typeof data6 === "string"){
if(data6.length > 65536 && func2(data6) > 65536){
const err14 = {instancePath:instancePath+"/caBundle",schemaPath:"#/properties/caBundle/maxLength",keyword:"maxLength",params:{limit: 65536}};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/caBundle",schemaPath:"#/properties/caBundle/type",keyword:"type",params:{type: "string"}};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
validate12.errors = vErrors;
return errors === 0;
}

return exports;
}
