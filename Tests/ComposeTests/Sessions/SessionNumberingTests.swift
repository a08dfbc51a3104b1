import Compose
import ComposeEmitters
import ComposeTesting
import Testing

private struct Card: Component {
    var observers: Void { None }
}

/// Opens a card at once, and a second after a quiet second replaces it with another: an instance
/// is created between two inputs, where only the clock looks.
private struct Board: RouterComponent {
    struct State: AnyState, Codable { var opened = 0 }
    @Store var state: State
    let cards = InstanceComponent<Card>()
    let router = Router(label: "numbering.board")
    let open = SignalEmitter(label: "numbering.open")
    var observers: Void {
        open += {
            $state.mutate { $0.opened += 1 }
            router.push(\Self.cards, instance: cards.create(Card()))
        }
        open.debounce(interval: .seconds(1), clock: services.clock) += {
            router.pop()
            router.push(\Self.cards, instance: cards.create(Card()))
        }
    }
}

/// Instances are numbered at the moments a recording and its replay share: looking at the tree
/// at any other moment (a snapshot, a send outside the tree) numbers nothing, so the replay
/// names every instance as the recording did.
@Suite(.composeSandbox(clock: .test))
struct SessionNumberingTests {
    enum Look: CaseIterable, Sendable {
        /// Nothing between the input and the debounce.
        case nothing
        /// "Report a bug" reads the recording so far.
        case snapshot
        /// A send on an emitter that is not in the tree (it is looked for there).
        case sendOutsideTheTree
    }

    @Test(arguments: Look.allCases)
    func aLookBetweenStepsNumbersNothing(_ look: Look) async throws {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let analytics = ValueEmitter<String>(label: "numbering.analytics")
        let host = ComponentHost(Board())
        let recorder = SessionRecorder(host)
        host.root.open.send()
        switch look {
        case .nothing: break
        case .snapshot: _ = recorder.recording
        case .sendOutsideTheTree: analytics.send("opened")
        }
        await clock.settle(by: .seconds(2))
        let recording = recorder.stop()
        host.unmount()

        #expect(recording.states.last?.routers["Board.router"] == ["Board/cards[#1]"])
        let divergence = await SessionReplay(recording).firstDivergence(Board())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
    }
}
