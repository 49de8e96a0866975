/**
 * The AWS SDK inside snowflake-sdk and @aws-sdk/client-athena warns once per process, on
 * Node 20, that its releases from January 2027 need Node 22. That is news for whoever updates
 * nao's dependencies, not for someone running tests, and it lands in the middle of nao's
 * output; so nao turns it off before loading those drivers, unless the environment already
 * says (`AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=false` shows it).
 */
export function quietAwsSdkNodeNotice(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
