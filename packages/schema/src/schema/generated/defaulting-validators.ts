// Generated from schemas/ by `npm run generate` (scripts/generate/validators.ts). Do not edit: change the schema
// or the generator and regenerate. The validators that insert the schema's `default`s into what they check (ajv useDefaults).
// ajv's standalone code: plain JavaScript, not type-checked; packages/schema/src/schema/ajv-validators.ts gives it its types.
// @ts-nocheck

/** The validators by name; `runtime` is packages/schema/src/schema/ajv-runtime.ts. The code imports nothing. */
export function validators(runtime) {
const exports = {};
exports.livenessProbe = validate10;
const schema11 = {"$id":"liveness-probe.schema.json","title":"LivenessProbe","description":"How the health of a member cluster is probed, modelled on a Pod's livenessProbe. Exactly one handler (httpGet, tcpSocket, grpc or apiServer) must be set.","type":"object","additionalProperties":false,"properties":{"httpGet":{"title":"HTTPGetAction","description":"An HTTP GET request; any status from 200 to 399 is a success.","type":"object","additionalProperties":false,"required":["port"],"properties":{"scheme":{"description":"Scheme to connect with: HTTP or HTTPS. HTTPS is verified against caBundle or the system roots unless insecureSkipTLSVerify is true.","type":"string","enum":["HTTP","HTTPS"],"default":"HTTP"},"host":{"description":"Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint.","type":"string","maxLength":253},"port":{"description":"Port to connect to: a number from 1 to 65535 or an IANA service name such as \"https\".","x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"type(self) == string || (self >= 1 && self <= 65535)","message":"must be between 1 and 65535, inclusive"}]},"path":{"description":"Path to request, starting with '/'.","type":"string","default":"/","maxLength":2048},"httpHeaders":{"description":"Custom headers to send. A Host header sets the request's host.","type":"array","maxItems":32,"x-kubernetes-list-type":"atomic","items":{"title":"HTTPHeader","description":"One HTTP header.","type":"object","additionalProperties":false,"required":["name","value"],"properties":{"name":{"description":"Header field name; alphanumerics and '-'.","type":"string","maxLength":256},"value":{"description":"Header field value.","type":"string","maxLength":4096}}}},"caBundle":{"description":"Base64-encoded PEM bundle of the CA certificates that sign the server's certificate. Defaults to the system roots.","type":"string","maxLength":65536},"insecureSkipTLSVerify":{"description":"Skip verification of the server's certificate. An explicit opt-out: use only for testing.","type":"boolean"}}},"tcpSocket":{"title":"TCPSocketAction","description":"A TCP connection that is opened and closed; success when it connects.","type":"object","additionalProperties":false,"required":["port"],"properties":{"host":{"description":"Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint.","type":"string","maxLength":253},"port":{"description":"Port to connect to: a number from 1 to 65535 or an IANA service name.","x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"type(self) == string || (self >= 1 && self <= 65535)","message":"must be between 1 and 65535, inclusive"}]}}},"grpc":{"title":"GRPCAction","description":"A grpc.health.v1 Check call; SERVING is a success.","type":"object","additionalProperties":false,"required":["port"],"properties":{"host":{"description":"Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint.","type":"string","maxLength":253},"port":{"description":"Port number of the gRPC service, from 1 to 65535 (names are not accepted).","type":"integer","format":"int32","x-kubernetes-validations":[{"rule":"self >= 1 && self <= 65535","message":"must be between 1 and 65535, inclusive"}]},"service":{"description":"Service name to pass in the HealthCheckRequest; empty asks for the server's overall health.","type":"string","default":"","maxLength":256}}},"apiServer":{"title":"APIServerAction","description":"A check through the member's own API with the credentials that spec.secretRef names: GET path, then the optional counts of Ready nodes and pods.","type":"object","additionalProperties":false,"properties":{"path":{"description":"Path to request on spec.apiEndpoint.","type":"string","default":"/readyz","maxLength":2048},"minReadyNodes":{"description":"At least this many Nodes must have the condition Ready=True.","type":"integer","format":"int32","minimum":0},"minReadyPods":{"description":"At least this many Running, Ready pods that do not use the host network must exist.","type":"integer","format":"int32","minimum":0}}},"initialDelaySeconds":{"description":"Seconds after the probe is first seen before it runs the first time. Not defaulted (as the kubelet): absent means 0.","type":"integer","format":"int32","minimum":0},"timeoutSeconds":{"description":"Seconds after which one probe times out. Minimum 1.","type":"integer","format":"int32","minimum":1,"default":1},"periodSeconds":{"description":"How often, in seconds, to probe. Minimum 1.","type":"integer","format":"int32","minimum":1,"default":10},"successThreshold":{"description":"Consecutive successes for the cluster to be considered healthy after having failed. May exceed 1 here, to damp recovery.","type":"integer","format":"int32","minimum":1,"default":1},"failureThreshold":{"description":"Consecutive failures for the cluster to be considered unhealthy.","type":"integer","format":"int32","minimum":1,"default":3}},"x-kubernetes-validations":[{"rule":"has(self.httpGet) || has(self.tcpSocket) || has(self.grpc) || has(self.apiServer)","message":"must specify a handler type"},{"rule":"[has(self.httpGet), has(self.tcpSocket), has(self.grpc), has(self.apiServer)].filter(x, x).size() <= 1","message":"may not specify more than 1 handler type"}]};
const func2 = Object.prototype.hasOwnProperty;
const func3 = runtime.codePoints;
const func4 = runtime.isIntOrString;
const formats0 = runtime.formats.int32;

function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="liveness-probe.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.timeoutSeconds === undefined){
data.timeoutSeconds = 1;
}
if(data.periodSeconds === undefined){
data.periodSeconds = 10;
}
if(data.successThreshold === undefined){
data.successThreshold = 1;
}
if(data.failureThreshold === undefined){
data.failureThreshold = 3;
}
for(const key0 in data){
if(!(func2.call(schema11.properties, key0))){
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
if(data0.scheme === undefined){
data0.scheme = "HTTP";
}
if(data0.path === undefined){
data0.path = "/";
}
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
const err4 = {instancePath:instancePath+"/httpGet/scheme",schemaPath:"#/properties/httpGet/properties/scheme/enum",keyword:"enum",params:{allowedValues: schema11.properties.httpGet.properties.scheme.enum}};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data0.host !== undefined){
let data2 = data0.host;
if(typeof data2 === "string"){
if(data2.length > 253 && func3(data2) > 253){
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
if(!func4(data0.port)){
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
let data4 = data0.path;
if(typeof data4 === "string"){
if(data4.length > 2048 && func3(data4) > 2048){
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
if(data7.length > 256 && func3(data7) > 256){
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
if(data8.length > 4096 && func3(data8) > 4096){
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
if(data9.length > 65536 && func3(data9) > 65536){
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
if(data12.length > 253 && func3(data12) > 253){
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
if(!func4(data11.port)){
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
if(data14.service === undefined){
data14.service = "";
}
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
if(data15.length > 253 && func3(data15) > 253){
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
if(!(formats0.validate(data16))){
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
let data17 = data14.service;
if(typeof data17 === "string"){
if(data17.length > 256 && func3(data17) > 256){
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
if(data18.path === undefined){
data18.path = "/readyz";
}
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
let data19 = data18.path;
if(typeof data19 === "string"){
if(data19.length > 2048 && func3(data19) > 2048){
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
if(!(formats0.validate(data20))){
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
if(!(formats0.validate(data21))){
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
if(!(formats0.validate(data22))){
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
if(!(formats0.validate(data23))){
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
if(!(formats0.validate(data24))){
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
if(!(formats0.validate(data25))){
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
if(!(formats0.validate(data26))){
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
validate10.errors = vErrors;
return errors === 0;
}

return exports;
}
