import ComposeRouting

/// The Composable Navigator seed's screens.
struct HomeScreen: ParameterlessScreen {
    static let name = "home"
}

struct SettingsScreen: ParameterlessScreen {
    static let name = "settings"
}

struct DetailScreen: Screen {
    static let name = "detail"
    let id: Int
    var flagged = false

    init(id: Int, flagged: Bool = false) {
        self.id = id
        self.flagged = flagged
    }

    init(parameters: ScreenParameters) throws {
        id = try parameters.required("id")
        flagged = parameters.flag("flagged")
    }

    var parameters: ScreenParameters {
        var parameters: ScreenParameters = ["id": "\(id)"]
        if flagged { parameters.set("flagged", nil) }
        return parameters
    }
}

struct LoginScreen: ParameterlessScreen {
    static let name = "login"
}

struct SheetScreen: ParameterlessScreen {
    static let name = "sheet"
    var presentation: Presentation { .sheet }
}

/// The seed's app navigator, without destinations (resolution only).
let seedNavigator: Navigator = .screen(
    HomeScreen.self,
    nesting: .anyOf(
        .screen(SettingsScreen.self),
        .screen(DetailScreen.self)
    )
)
