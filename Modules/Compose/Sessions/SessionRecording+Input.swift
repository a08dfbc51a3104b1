extension SessionRecording {
    /// What came into the tree from outside at one step.
    ///
    /// In the file, an object with one member named after the case:
    /// `{"send":{"component":"NotesApp/list","emitter":"add","label":"notes.add","value":"Milk"}}`.
    public enum Input: Sendable, Equatable, Codable, CustomStringConvertible {
        /// A send on a component's emitter made outside any handler: a tap, typing.
        case send(Send)
        /// A store written through its binding by a view layer (a text field, a toggle).
        case binding(Binding)
        /// A router asked to navigate by a view layer: a back gesture, a `navigationPath` set.
        case navigation(Navigation)
        /// A deep link or routing path opened on the host (`open(_:with:)`, `navigate(to:with:)`).
        case link(path: String)
        /// A dynamic component dismissed from outside: a sheet swiped down, `isPresented = false`.
        case dismissal(component: String, field: String)
        /// A component made visible or hidden by a view layer (manual visibility).
        case visibility(component: String, visible: Bool)
        /// The recording stopped: the last step's time is how long it ran.
        case end

        /// A send on an emitter.
        public struct Send: Sendable, Equatable, Codable {
            /// The path of the component holding the emitter: `NotesApp/list`.
            public var component: String
            /// The emitter's property name: `add`.
            public var emitter: String
            /// The emitter's label, if it has one.
            public var label: String?
            /// The value, encoded; `nil` for a signal, and for a value that is redacted or not
            /// `Encodable`.
            public var value: SessionValue?
            /// The value's description, for a value that is not `Encodable` (it cannot replay).
            public var valueDescription: String?
            /// Whether the emitter is redacted (`ValueEmitter(redacted: true)`): the value is not
            /// in the recording.
            public var redacted: Bool?

            /// A send of `value` on the emitter `emitter` of the component at `component`.
            public init(
                component: String, emitter: String, label: String?, value: SessionValue?,
                valueDescription: String? = nil, redacted: Bool? = nil
            ) {
                self.component = component
                self.emitter = emitter
                self.label = label
                self.value = value
                self.valueDescription = valueDescription
                self.redacted = redacted
            }

            private enum CodingKeys: String, CodingKey {
                case component, emitter, label, value, valueDescription, redacted
            }

            /// Reads a send; `"value":null` is a sent `nil` (``SessionValue/null``), not a missing value.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                component = try container.decode(String.self, forKey: .component)
                emitter = try container.decode(String.self, forKey: .emitter)
                label = try container.decodeIfPresent(String.self, forKey: .label)
                value = container.contains(.value) ? try container.decode(SessionValue.self, forKey: .value) : nil
                valueDescription = try container.decodeIfPresent(String.self, forKey: .valueDescription)
                redacted = try container.decodeIfPresent(Bool.self, forKey: .redacted)
            }
        }

        /// A write through a store's binding (`$state.binding.email`).
        public struct Binding: Sendable, Equatable, Codable {
            /// The path of the component holding the store.
            public var component: String
            /// The store's property name: `state`.
            public var store: String
            /// The key path written: `\State.email`.
            public var keyPath: String
            /// The whole state after the write, as a checkpoint holds it.
            public var state: SessionRecording.StoreState
            /// Whether the write changed only `Redacted` fields: the value written is not in the
            /// recording.
            public var redacted: Bool?

            /// A write at `keyPath` of the store `store` of the component at `component`, leading to `state`.
            public init(
                component: String, store: String, keyPath: String, state: SessionRecording.StoreState, redacted: Bool? = nil
            ) {
                self.component = component
                self.store = store
                self.keyPath = keyPath
                self.state = state
                self.redacted = redacted
            }
        }

        /// A router asked to navigate from outside any handler.
        public struct Navigation: Sendable, Equatable, Codable {
            /// The path of the component holding the router.
            public var component: String
            /// The router's property name: `router`.
            public var router: String
            /// What it was asked: `navigationPath` (a back gesture setting a shorter path), `pop`,
            /// `popToRoot`, `push`, `replace` or `set`.
            public var action: String
            /// The routes asked for (the new navigation path, the pushed route), as the paths of
            /// the components they show.
            public var routes: [String]

            /// A navigation `action` asked of the router `router` of the component at `component`.
            public init(component: String, router: String, action: String, routes: [String]) {
                self.component = component
                self.router = router
                self.action = action
                self.routes = routes
            }
        }

        /// `send notes.add "Milk" (NotesApp/list.add)`.
        public var description: String {
            switch self {
            case .send(let send):
                let name = send.label ?? send.emitter
                let value =
                    send.redacted == true
                    ? " <redacted>" : send.value.map { " \($0)" } ?? send.valueDescription.map { " \($0)" } ?? ""
                return "send \(name)\(value) (\(send.component).\(send.emitter))"
            case .binding(let binding):
                return "set \(binding.keyPath) of \(binding.component).\(binding.store)"
            case .navigation(let navigation):
                let routes = navigation.routes.isEmpty && navigation.action != "navigationPath" ? "" : " \(navigation.routes)"
                return "\(navigation.action) \(navigation.component).\(navigation.router)\(routes)"
            case .link(let path):
                return "open \(path)"
            case .dismissal(let component, let field):
                return "dismiss \(component).\(field)"
            case .visibility(let component, let visible):
                return "\(visible ? "appear" : "disappear") \(component)"
            case .end:
                return "end"
            }
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case send, binding, navigation, link, dismissal, visibility, end
        }

        private struct Link: Codable { var path: String }
        private struct Dismissal: Codable { var component: String, field: String }
        private struct Visibility: Codable { var component: String, visible: Bool }
        private struct End: Codable {}

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "An input has exactly one of \(CodingKeys.allCases.map(\.rawValue))"))
            }
            switch key {
            case .send: self = .send(try container.decode(Send.self, forKey: key))
            case .binding: self = .binding(try container.decode(Binding.self, forKey: key))
            case .navigation: self = .navigation(try container.decode(Navigation.self, forKey: key))
            case .link: self = .link(path: try container.decode(Link.self, forKey: key).path)
            case .dismissal:
                let dismissal = try container.decode(Dismissal.self, forKey: key)
                self = .dismissal(component: dismissal.component, field: dismissal.field)
            case .visibility:
                let visibility = try container.decode(Visibility.self, forKey: key)
                self = .visibility(component: visibility.component, visible: visibility.visible)
            case .end:
                _ = try container.decode(End.self, forKey: key)
                self = .end
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .send(let send): try container.encode(send, forKey: .send)
            case .binding(let binding): try container.encode(binding, forKey: .binding)
            case .navigation(let navigation): try container.encode(navigation, forKey: .navigation)
            case .link(let path): try container.encode(Link(path: path), forKey: .link)
            case .dismissal(let component, let field):
                try container.encode(Dismissal(component: component, field: field), forKey: .dismissal)
            case .visibility(let component, let visible):
                try container.encode(Visibility(component: component, visible: visible), forKey: .visibility)
            case .end: try container.encode(End(), forKey: .end)
            }
        }
    }
}
