// The fake panel's data, kept as the panel's tables keep it (app/Models/*.php of pterodactyl/panel), and
// how its transformers show it (app/Transformers/Api/Application/*.php, wrapped by
// PterodactylSerializer as {"object": ..., "attributes": ...}).

import { randomUUID } from "node:crypto";

export type FakeServerStatus =
  null | "installing" | "install_failed" | "reinstall_failed" | "suspended" | "restoring_backup";

export interface FakeLocation {
  id: number;
  short: string;
  long: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface FakeNode {
  id: number;
  uuid: string;
  name: string;
  description: string | null;
  locationId: number;
  fqdn: string;
  public: boolean;
  maintenance: boolean;
  /** MiB the node offers, and the percent over it the panel lets servers take (-1: no limit). */
  memory: number;
  memoryOverallocate: number;
  disk: number;
  diskOverallocate: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface FakeAllocation {
  id: number;
  nodeId: number;
  ip: string;
  alias: string | null;
  port: number;
  /** The server it is assigned to (the panel's `assigned` is `serverId !== null`). */
  serverId: number | null;
  notes: string | null;
}

export interface FakeNest {
  id: number;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface FakeEggVariable {
  id: number;
  eggId: number;
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  /** Laravel rules, e.g. `required|integer|between:1,1000`. */
  rules: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface FakeEgg {
  id: number;
  uuid: string;
  nestId: number;
  author: string;
  name: string;
  description: string | null;
  dockerImages: Record<string, string>;
  startup: string;
  variables: FakeEggVariable[];
  createdAt: Date;
  updatedAt: Date;
}

export interface FakeUser {
  id: number;
  uuid: string;
  externalId: string | null;
  /** Stored in lower case, as User::setUsernameAttribute does. */
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  rootAdmin: boolean;
  /**
   * The last password set through the API (POST or PATCH /users), in clear where the panel keeps a hash:
   * the fake is a double, and tests read it (FakePanel.userPassword). Null: never set (the user is
   * mailed a link to set one).
   */
  password: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface FakeServer {
  id: number;
  uuid: string;
  /** `uuidShort`, the first 8 characters of the uuid: the panel's link `/server/<identifier>`. */
  identifier: string;
  externalId: string | null;
  name: string;
  description: string;
  status: FakeServerStatus;
  skipScripts: boolean;
  /** The owner (the panel's `owner_id`, `user` in its answers). */
  userId: number;
  nodeId: number;
  allocationId: number;
  nestId: number;
  eggId: number;
  startup: string;
  image: string;
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  threads: string | null;
  oomDisabled: boolean;
  databaseLimit: number | null;
  allocationLimit: number | null;
  backupLimit: number;
  startOnCompletion: boolean;
  /**
   * server_variables: the value of each of the egg's variables by env name ("" when none was given).
   * The panel's answers add its own keys (STARTUP, P_SERVER_LOCATION, P_SERVER_UUID).
   */
  environment: Record<string, string>;
  /** The panel's deprecated flag: status "suspended". */
  readonly suspended: boolean;
  /** An install (or reinstall) under way: how many more single reads until Wings reports it done. */
  install: { readsLeft: number; reinstall: boolean } | null;
  /** A transfer to another node under way (the panel's `transfer` relation): the Client API answers 409. */
  transferring: boolean;
  installedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewFakeNode {
  name: string;
  locationId: number;
  fqdn?: string;
  memory?: number;
  memoryOverallocate?: number;
  disk?: number;
  diskOverallocate?: number;
  maintenance?: boolean;
}

export interface NewFakeEgg {
  nestId: number;
  name: string;
  dockerImages: Record<string, string>;
  startup: string;
  variables: {
    name: string;
    envVariable: string;
    defaultValue: string;
    rules: string;
    userEditable?: boolean;
    userViewable?: boolean;
    description?: string;
  }[];
}

export interface NewFakeUser {
  email: string;
  username?: string;
  firstName?: string;
  lastName?: string;
  externalId?: string | null;
}

/** A server put straight into the panel's tables (no validation: the test's word is taken). */
export interface NewFakeServer {
  userId: number;
  eggId: number;
  allocationId: number;
  additionalAllocationIds?: number[];
  externalId?: string | null;
  name?: string;
  memory?: number;
  swap?: number;
  disk?: number;
  io?: number;
  cpu?: number;
  databaseLimit?: number;
  allocationLimit?: number;
  backupLimit?: number;
  environment?: Record<string, string>;
  status?: FakeServerStatus;
  /** Random unless given: a test can pin one whose first 8 characters (the identifier) are digits. */
  uuid?: string;
}

/** MySQL's default collation compares without case: the panel's unique and where() checks do too. */
export const sameText = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

type Table = "location" | "node" | "allocation" | "nest" | "egg" | "variable" | "user" | "server";

/** The panel's tables, with ids as auto-increment gives them. */
export class FakePanelStore {
  readonly locations: FakeLocation[] = [];
  readonly nodes: FakeNode[] = [];
  readonly allocations: FakeAllocation[] = [];
  readonly nests: FakeNest[] = [];
  readonly eggs: FakeEgg[] = [];
  readonly users: FakeUser[] = [];
  readonly servers: FakeServer[] = [];
  private readonly ids: Record<Table, number> = {
    location: 0,
    node: 0,
    allocation: 0,
    nest: 0,
    egg: 0,
    variable: 0,
    user: 0,
    server: 0,
  };

  constructor(private readonly now: () => Date) {}

  nextId(table: Table): number {
    return ++this.ids[table];
  }

  addLocation(short: string, long: string | null = null): FakeLocation {
    const at = this.now();
    const location = { id: this.nextId("location"), short, long, createdAt: at, updatedAt: at };
    this.locations.push(location);
    return location;
  }

  addNode(input: NewFakeNode): FakeNode {
    if (!this.locations.some((location) => location.id === input.locationId)) {
      throw new Error(`No location ${input.locationId} in the fake panel`);
    }
    const at = this.now();
    const id = this.nextId("node");
    const node: FakeNode = {
      id,
      uuid: randomUUID(),
      name: input.name,
      description: null,
      locationId: input.locationId,
      fqdn: input.fqdn ?? `${input.name}.nodes.example.test`,
      public: true,
      maintenance: input.maintenance ?? false,
      memory: input.memory ?? 32_768,
      memoryOverallocate: input.memoryOverallocate ?? 0,
      disk: input.disk ?? 500_000,
      diskOverallocate: input.diskOverallocate ?? 0,
      createdAt: at,
      updatedAt: at,
    };
    this.nodes.push(node);
    return node;
  }

  /** Allocations on a node, one per port, as the panel's "assign new allocations" form makes them. */
  addAllocations(
    nodeId: number,
    ip: string,
    ports: number[],
    alias: string | null = null,
  ): FakeAllocation[] {
    if (!this.nodes.some((node) => node.id === nodeId)) {
      throw new Error(`No node ${nodeId} in the fake panel`);
    }
    return ports.map((port) => {
      if (this.allocations.some((a) => a.nodeId === nodeId && a.ip === ip && a.port === port)) {
        throw new Error(`The allocation ${ip}:${port} exists already on node ${nodeId}`);
      }
      const allocation: FakeAllocation = {
        id: this.nextId("allocation"),
        nodeId,
        ip,
        alias,
        port,
        serverId: null,
        notes: null,
      };
      this.allocations.push(allocation);
      return allocation;
    });
  }

  addNest(name: string, description: string | null = null): FakeNest {
    const at = this.now();
    const nest: FakeNest = {
      id: this.nextId("nest"),
      uuid: randomUUID(),
      author: "support@pterodactyl.io",
      name,
      description,
      createdAt: at,
      updatedAt: at,
    };
    this.nests.push(nest);
    return nest;
  }

  addEgg(input: NewFakeEgg): FakeEgg {
    if (!this.nests.some((nest) => nest.id === input.nestId)) {
      throw new Error(`No nest ${input.nestId} in the fake panel`);
    }
    const at = this.now();
    const id = this.nextId("egg");
    const egg: FakeEgg = {
      id,
      uuid: randomUUID(),
      nestId: input.nestId,
      author: "parker@parkervcp.com",
      name: input.name,
      description: null,
      dockerImages: input.dockerImages,
      startup: input.startup,
      variables: input.variables.map((variable) => ({
        id: this.nextId("variable"),
        eggId: id,
        name: variable.name,
        description: variable.description ?? "",
        envVariable: variable.envVariable,
        defaultValue: variable.defaultValue,
        userViewable: variable.userViewable ?? true,
        userEditable: variable.userEditable ?? true,
        rules: variable.rules,
        createdAt: at,
        updatedAt: at,
      })),
      createdAt: at,
      updatedAt: at,
    };
    this.eggs.push(egg);
    return egg;
  }

  addUser(input: NewFakeUser): FakeUser {
    const at = this.now();
    const user: FakeUser = {
      id: this.nextId("user"),
      uuid: randomUUID(),
      externalId: input.externalId ?? null,
      username: (input.username ?? input.email.split("@")[0]!).toLowerCase(),
      email: input.email,
      firstName: input.firstName ?? "Test",
      lastName: input.lastName ?? "User",
      language: "en",
      rootAdmin: false,
      password: null,
      createdAt: at,
      updatedAt: at,
    };
    this.users.push(user);
    return user;
  }

  /** A server straight into the tables, installed unless `status` says otherwise. */
  addServer(input: NewFakeServer): FakeServer {
    const egg = this.eggs.find((candidate) => candidate.id === input.eggId);
    if (!egg) throw new Error(`No egg ${input.eggId} in the fake panel`);
    if (!this.users.some((user) => user.id === input.userId)) {
      throw new Error(`No user ${input.userId} in the fake panel`);
    }
    const ids = [input.allocationId, ...(input.additionalAllocationIds ?? [])];
    const allocations = ids.map((id) => this.allocations.find((a) => a.id === id));
    const first = allocations[0];
    if (!first) throw new Error(`No allocation ${input.allocationId} in the fake panel`);
    for (const [index, allocation] of allocations.entries()) {
      if (!allocation || allocation.serverId !== null || allocation.nodeId !== first.nodeId) {
        throw new Error(`The allocation ${ids[index]} is missing, taken or on another node`);
      }
    }
    return this.insertServer({
      uuid: input.uuid,
      externalId: input.externalId ?? null,
      name: input.name ?? `Server ${this.ids.server + 1}`,
      description: "",
      userId: input.userId,
      egg,
      allocationIds: ids,
      image: Object.values(egg.dockerImages)[0] ?? "",
      startup: egg.startup,
      memory: input.memory ?? 1024,
      swap: input.swap ?? 0,
      disk: input.disk ?? 5120,
      io: input.io ?? 500,
      cpu: input.cpu ?? 100,
      threads: null,
      databaseLimit: input.databaseLimit ?? 0,
      allocationLimit: input.allocationLimit ?? 0,
      backupLimit: input.backupLimit ?? 0,
      environment: input.environment ?? {},
      skipScripts: false,
      startOnCompletion: false,
      oomDisabled: true,
      status: input.status ?? null,
      install: null,
    });
  }

  /** ServerCreationService::createModel, storeAssignedAllocations and storeEggVariables. */
  insertServer(input: {
    uuid?: string;
    externalId: string | null;
    name: string;
    description: string;
    userId: number;
    egg: FakeEgg;
    allocationIds: number[];
    image: string;
    startup: string;
    memory: number;
    swap: number;
    disk: number;
    io: number;
    cpu: number;
    threads: string | null;
    databaseLimit: number | null;
    allocationLimit: number | null;
    backupLimit: number;
    environment: Record<string, unknown>;
    skipScripts: boolean;
    startOnCompletion: boolean;
    oomDisabled: boolean;
    status: FakeServerStatus;
    install: FakeServer["install"];
  }): FakeServer {
    const at = this.now();
    const uuid = input.uuid ?? randomUUID();
    const id = this.nextId("server");
    const defaultAllocation = this.allocations.find((a) => a.id === input.allocationIds[0])!;
    const environment: Record<string, string> = {};
    for (const variable of input.egg.variables) {
      const value = input.environment[variable.envVariable];
      environment[variable.envVariable] =
        value === null || value === undefined ? "" : String(value);
    }
    const server: FakeServer = {
      id,
      uuid,
      identifier: uuid.slice(0, 8),
      externalId: input.externalId,
      name: input.name,
      description: input.description,
      status: input.status,
      skipScripts: input.skipScripts,
      userId: input.userId,
      nodeId: defaultAllocation.nodeId,
      allocationId: defaultAllocation.id,
      nestId: input.egg.nestId,
      eggId: input.egg.id,
      startup: input.startup,
      image: input.image,
      memory: input.memory,
      swap: input.swap,
      disk: input.disk,
      io: input.io,
      cpu: input.cpu,
      threads: input.threads,
      oomDisabled: input.oomDisabled,
      databaseLimit: input.databaseLimit,
      allocationLimit: input.allocationLimit,
      backupLimit: input.backupLimit,
      startOnCompletion: input.startOnCompletion,
      environment,
      get suspended() {
        return this.status === "suspended";
      },
      install: input.install,
      transferring: false,
      installedAt: input.install ? null : at,
      createdAt: at,
      updatedAt: at,
    };
    this.servers.push(server);
    for (const allocation of this.allocations) {
      if (input.allocationIds.includes(allocation.id)) allocation.serverId = id;
    }
    return server;
  }

  /**
   * Wings reports the install done (Api/Remote/Servers/ServerInstallController::store): null when it
   * went well, install_failed (reinstall_failed after a reinstall) when not; a server suspended in the
   * meantime stays suspended.
   */
  completeInstall(server: FakeServer, result: "ok" | "install_failed") {
    const reinstall = server.install?.reinstall ?? false;
    server.install = null;
    server.installedAt = this.now();
    server.updatedAt = this.now();
    if (server.status === "suspended") return;
    server.status = result === "ok" ? null : reinstall ? "reinstall_failed" : "install_failed";
  }

  /**
   * A single read of a server (the Application API's, or the Client API's page of it) moves its install
   * on: after `installReads` of them Wings reports it done (FakePanelOptions.installReads).
   */
  countInstallRead(server: FakeServer) {
    if (!server.install) return;
    server.install.readsLeft -= 1;
    if (server.install.readsLeft <= 0) this.completeInstall(server, "ok");
  }

  /** ServerDeletionService: the row goes, its allocations are free again (server_id set null). */
  removeServer(server: FakeServer) {
    this.servers.splice(this.servers.indexOf(server), 1);
    for (const allocation of this.allocations) {
      if (allocation.serverId === server.id) {
        allocation.serverId = null;
        allocation.notes = null;
      }
    }
  }

  allocationsOf(serverId: number): FakeAllocation[] {
    return this.allocations.filter((allocation) => allocation.serverId === serverId);
  }

  egg(id: number): FakeEgg | undefined {
    return this.eggs.find((egg) => egg.id === id);
  }

  /** EnvironmentService::handle: each variable's value or its default, then the panel's own keys. */
  environmentOf(server: FakeServer): Record<string, string> {
    const egg = this.egg(server.eggId);
    const environment: Record<string, string> = {};
    for (const variable of egg?.variables ?? []) {
      environment[variable.envVariable] =
        server.environment[variable.envVariable] ?? variable.defaultValue;
    }
    const node = this.nodes.find((candidate) => candidate.id === server.nodeId);
    const location = this.locations.find((candidate) => candidate.id === node?.locationId);
    environment.STARTUP = server.startup;
    environment.P_SERVER_LOCATION = location?.short ?? "";
    environment.P_SERVER_UUID = server.uuid;
    return environment;
  }
}

// ---------------------------------------------------------------------------------------------------
// The transformers

/** BaseTransformer::formatTimestamp: Carbon's toAtomString in UTC. */
export function atom(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** A model's own toArray() date (the nest's, the node's, an egg variable's): microseconds and Z. */
function modelDate(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** PterodactylSerializer::item. */
export const item = (object: string, attributes: Record<string, unknown>) => ({
  object,
  attributes,
});

export function locationAttributes(location: FakeLocation) {
  return {
    id: location.id,
    short: location.short,
    long: location.long,
    updated_at: atom(location.updatedAt),
    created_at: atom(location.createdAt),
  };
}

/** NodeTransformer: the model's columns in snake case, and what its servers take. */
export function nodeAttributes(store: FakePanelStore, node: FakeNode) {
  const servers = store.servers.filter((server) => server.nodeId === node.id);
  return {
    id: node.id,
    uuid: node.uuid,
    public: node.public,
    name: node.name,
    description: node.description,
    location_id: node.locationId,
    fqdn: node.fqdn,
    scheme: "https",
    behind_proxy: false,
    maintenance_mode: node.maintenance,
    memory: node.memory,
    memory_overallocate: node.memoryOverallocate,
    disk: node.disk,
    disk_overallocate: node.diskOverallocate,
    upload_size: 100,
    daemon_listen: 8080,
    daemon_sftp: 2022,
    daemon_base: "/var/lib/pterodactyl/volumes",
    created_at: atom(node.createdAt),
    updated_at: atom(node.updatedAt),
    allocated_resources: {
      memory: servers.reduce((sum, server) => sum + server.memory, 0),
      disk: servers.reduce((sum, server) => sum + server.disk, 0),
    },
  };
}

export function allocationAttributes(allocation: FakeAllocation) {
  return {
    id: allocation.id,
    ip: allocation.ip,
    alias: allocation.alias,
    port: allocation.port,
    notes: allocation.notes,
    assigned: allocation.serverId !== null,
  };
}

export function nestAttributes(nest: FakeNest) {
  return {
    id: nest.id,
    uuid: nest.uuid,
    author: nest.author,
    name: nest.name,
    description: nest.description,
    created_at: atom(nest.createdAt),
    updated_at: atom(nest.updatedAt),
  };
}

function eggVariableAttributes(variable: FakeEggVariable) {
  return {
    id: variable.id,
    egg_id: variable.eggId,
    name: variable.name,
    description: variable.description,
    env_variable: variable.envVariable,
    default_value: variable.defaultValue,
    user_viewable: variable.userViewable,
    user_editable: variable.userEditable,
    rules: variable.rules,
    created_at: modelDate(variable.createdAt),
    updated_at: modelDate(variable.updatedAt),
  };
}

/** EggTransformer, with `?include=variables` as includeVariables adds it. */
export function eggAttributes(egg: FakeEgg, includes: string[]) {
  const attributes: Record<string, unknown> = {
    id: egg.id,
    uuid: egg.uuid,
    name: egg.name,
    nest: egg.nestId,
    author: egg.author,
    description: egg.description,
    docker_image: Object.values(egg.dockerImages)[0] ?? "",
    docker_images: egg.dockerImages,
    config: {
      files: {},
      startup: { done: "Started" },
      stop: "^C",
      logs: {},
      file_denylist: [],
      extends: null,
    },
    startup: egg.startup,
    script: {
      privileged: true,
      install: "#!/bin/bash\necho installed",
      entry: "bash",
      container: "ghcr.io/parkervcp/installers:debian",
      extends: null,
    },
    created_at: atom(egg.createdAt),
    updated_at: atom(egg.updatedAt),
  };
  if (includes.includes("variables")) {
    attributes.relationships = {
      variables: {
        object: "list",
        data: egg.variables.map((variable) =>
          item("egg_variable", eggVariableAttributes(variable)),
        ),
      },
    };
  }
  return attributes;
}

export function userAttributes(user: FakeUser) {
  return {
    id: user.id,
    external_id: user.externalId,
    uuid: user.uuid,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    language: user.language,
    root_admin: user.rootAdmin,
    "2fa": false,
    created_at: atom(user.createdAt),
    updated_at: atom(user.updatedAt),
  };
}

/**
 * ServerTransformer::transform, with `?include=allocations` (includeAllocations: the server's own
 * allocations through AllocationTransformer, as a list under `relationships`).
 */
export function serverAttributes(
  store: FakePanelStore,
  server: FakeServer,
  includes: string[] = [],
) {
  const installed = server.status !== "installing" && server.status !== "install_failed";
  const attributes: Record<string, unknown> = {
    id: server.id,
    external_id: server.externalId,
    uuid: server.uuid,
    identifier: server.identifier,
    name: server.name,
    description: server.description,
    status: server.status,
    suspended: server.suspended,
    limits: {
      memory: server.memory,
      swap: server.swap,
      disk: server.disk,
      io: server.io,
      cpu: server.cpu,
      threads: server.threads,
      oom_disabled: server.oomDisabled,
    },
    feature_limits: {
      databases: server.databaseLimit,
      allocations: server.allocationLimit,
      backups: server.backupLimit,
    },
    user: server.userId,
    node: server.nodeId,
    allocation: server.allocationId,
    nest: server.nestId,
    egg: server.eggId,
    container: {
      startup_command: server.startup,
      image: server.image,
      installed: installed ? 1 : 0,
      environment: store.environmentOf(server),
    },
    updated_at: atom(server.updatedAt),
    created_at: atom(server.createdAt),
  };
  if (includes.includes("allocations")) {
    attributes.relationships = {
      allocations: {
        object: "list",
        data: store
          .allocationsOf(server.id)
          .map((allocation) => item("allocation", allocationAttributes(allocation))),
      },
    };
  }
  return attributes;
}
